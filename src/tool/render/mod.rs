//! The one renderer: a read's result in a [`Dialect`]'s form — numbered text with its
//! header, notes and markers, the unified content-and-notes answer, or a JSON shape.

pub(crate) mod advice;
pub(crate) mod content;
pub(crate) mod documents;
pub(crate) mod listing;
pub(crate) mod notes;
pub(crate) mod oversize;
pub(crate) mod record;
pub(crate) mod shapes;

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use crate::error::Error;
use crate::result::{CutLine, Outline, ReadResult, TruncationReason};
use crate::select::Selection;
use crate::syntax::language_for;
use crate::tool::decode::paths::Place;
use crate::tool::decode::Plan;
use crate::tool::dialect::template::{fill, fill_into};
use crate::tool::dialect::{Dialect, Form, OutlineForm, PastEndAnswer, PathShow};
use crate::tool::render::record::AnswerRecord;
use crate::tool::render::shapes::{
    CutLineInfo, FsReadResponse, LinesRead, OmittedContent, ReadMetadata, SessionReadFileResponse,
};
use crate::tool::{lines_of, ToolResponse};

/// What a call produced, before it is rendered.
pub(crate) struct Answer {
    pub plan: Plan,
    pub body: Body,
    /// The lines asked for, when a short range was widened.
    pub requested: Option<(u64, u64)>,
    pub outline: Option<Outline>,
    pub root: Option<PathBuf>,
    pub session: Option<String>,
    /// Texts after the lines (notices about the text, a first page's banner).
    pub notes: Vec<String>,
    /// The answer as data, finished before a word is written: the text says what it
    /// says (whose budget cut the read, the tool's own line count, the empty line after
    /// a final line feed).
    pub record: AnswerRecord,
}

/// The answer's substance.
pub(crate) enum Body {
    /// A read.
    Read(Box<ReadResult>),
    /// A text instead of content (a first line past the end, as some tools answer it).
    Note(String),
    /// The empty line after a final line feed, numbered (tools that split on `\n`).
    EmptyLine(u64),
    /// An image, PDF pages, notebook cells, or a file sent whole.
    Document(Box<documents::Doc>),
}

impl Answer {
    /// A text instead of content (a listing, an outline, a note past the end), and its
    /// record.
    pub(crate) fn note(plan: Plan, text: String, record: AnswerRecord) -> Answer {
        Answer::of(plan, Body::Note(text), record)
    }

    /// An answer of `body` with no read's details.
    pub(crate) fn of(plan: Plan, body: Body, record: AnswerRecord) -> Answer {
        Answer {
            plan,
            body,
            requested: None,
            outline: None,
            root: None,
            session: None,
            notes: Vec::new(),
            record,
        }
    }
}

/// Renders a successful call, with its [`AnswerRecord`].
pub(crate) fn render(d: &Dialect, mut a: Answer) -> ToolResponse {
    let record = std::mem::take(&mut a.record);
    let mut out = render_body(d, a, &record);
    out.record = Some(record);
    out
}

/// The text (and the form's own structured content) of a successful call; `record`:
/// what it shows, as data.
fn render_body(d: &Dialect, a: Answer, record: &AnswerRecord) -> ToolResponse {
    let r = match a.body {
        Body::Read(r) => *r,
        Body::Note(text) => return structured(d, ToolResponse::ok(text)),
        Body::Document(doc) => {
            return documents::render(d, *doc);
        }
        Body::EmptyLine(n) => {
            let mut out = String::new();
            // Past line 1 it is a partial read: the header names the empty line alone,
            // the last of the tool's count.
            if let (Some(h), true) = (&d.output.partial_header, n > 1) {
                let total = record.tool_total_lines.or(record.total_lines).unwrap_or(n);
                let vals: [(&str, &dyn crate::tool::dialect::template::Value); 4] = [
                    ("start", &n),
                    ("end", &n),
                    ("total", &total),
                    ("next", &(n + 1)),
                ];
                fill_into(&mut out, h, &vals);
            }
            if let Some(t) = &d.output.line {
                fill_into(&mut out, t, &[("n", &n), ("line", &"")]);
            }
            if d.output.final_newline {
                out.push('\n');
            }
            return ToolResponse::ok(out);
        }
    };
    match d.output.form {
        Form::Text => structured(
            d,
            ToolResponse::ok(text(d, &a.plan, &r, a.outline.as_ref(), record) + &a.notes.concat()),
        ),
        Form::ContentAndNotes => {
            let notes = crate::render::notes(&r);
            let meta = serde_json::to_value(metadata(&r, a.root.as_deref())).ok();
            let mut out = ToolResponse::ok(r.content);
            out.notes = (!notes.is_empty()).then(|| notes.join("\n"));
            out.structured = meta;
            out
        }
        Form::SessionJson => json(&session(d, a.session, a.requested, r)),
        Form::RangeJson => json(&FsReadResponse::from(r)),
    }
}

/// The text also as structured content, `{KEY: text}`, when the dialect sends it.
fn structured(d: &Dialect, mut out: ToolResponse) -> ToolResponse {
    if let Some(key) = &d.output.structured_key {
        out.structured = Some(serde_json::json!({ key.as_str(): out.text.as_str() }));
    }
    out
}

/// A JSON answer: its text, and the same object as structured content.
fn json<T: serde::Serialize>(v: &T) -> ToolResponse {
    let value = serde_json::to_value(v).unwrap_or_default();
    let mut out = ToolResponse::ok(value.to_string());
    out.structured = Some(value);
    out
}

/// Renders a failed call in the dialect's words (`place`: where the path led, for the
/// texts that name it; `dirs`: the allowed directories).
pub(crate) fn error(d: &Dialect, e: &Error, place: &Place, dirs: &str) -> ToolResponse {
    let message = error_text(d, e, place, dirs);
    let mut out = error_body(d, e, message.clone());
    out.record = Some(AnswerRecord::error(e, &message));
    out
}

/// A call the agent's own validator refused before the tool ran
/// ([`Arguments::validation`](crate::tool::Arguments::validation)): its report alone,
/// without the tool's error wrapper.
pub(crate) fn rejected(e: &Error) -> ToolResponse {
    let message = e.to_string();
    let mut out = ToolResponse::error(message.clone());
    out.record = Some(AnswerRecord::error(e, &message));
    out
}

/// The text (and the form's own structured content) of a failed call.
fn error_body(d: &Dialect, e: &Error, message: String) -> ToolResponse {
    match d.output.form {
        Form::SessionJson => {
            let v = serde_json::json!({"success": false, "error": message});
            let mut out = ToolResponse::error(v.to_string());
            out.structured = Some(v);
            out
        }
        Form::ContentAndNotes => {
            // What kind of failure, and which parameter, for a host (the text has the
            // message).
            let mut v = serde_json::json!({ "kind": e.kind().as_str() });
            if let Some(parameter) = e.parameter() {
                v["parameter"] = serde_json::Value::String(parameter.to_string());
            }
            let mut out = ToolResponse::error(message);
            out.structured = Some(v);
            out
        }
        _ => ToolResponse::error(fill(&d.output.error, &[("message", &message)])),
    }
}

/// The text of an error: the dialect's, where it has one for the error's kind.
fn error_text(d: &Dialect, e: &Error, place: &Place, dirs: &str) -> String {
    let t = &d.errors;
    if let Error::Denied {
        path,
        rule,
        file,
        setting,
        default,
    } = e
    {
        let file = file.to_string_lossy();
        if let Some(template) = d.rules.template(&file, *default) {
            let path = path.display().to_string();
            let setting = setting.as_deref().unwrap_or("");
            let [cwd, abs, ext, did_you_mean] = place.values();
            return fill(
                template,
                &[
                    ("path", &path.as_str()),
                    ("rule", &rule.as_str()),
                    ("file", &file.as_ref()),
                    ("setting", &setting),
                    cwd,
                    abs,
                    ext,
                    did_you_mean,
                    ("dirs", &dirs),
                ],
            );
        }
    }
    if let (
        Error::LineBeyondEnd {
            start,
            total_lines,
            parameter,
        },
        PastEndAnswer::Message(template),
    ) = (e, &d.lines.past_end)
    {
        let vals: [(&str, &dyn crate::tool::dialect::template::Value); 3] = [
            ("start", start),
            ("total", total_lines),
            ("name", &parameter.as_str()),
        ];
        return fill(template, &vals);
    }
    if let Some(text) = advice::scan_budget(d, e) {
        return text;
    }
    let (template, path) = match e {
        Error::NotFound { path } => (place.not_found(t), Some(path)),
        Error::IsDirectory { path } => (&t.is_directory, Some(path)),
        Error::OutsideWorkspace { path } => (&t.outside, Some(path)),
        Error::Protected { path } => (&t.protected, Some(path)),
        Error::NotRegularFile { path, .. } => (&t.not_regular, Some(path)),
        Error::Binary { .. } => (&t.binary, None),
        Error::InvalidUtf8 { .. } => (&t.invalid_utf8, None),
        _ => (&None, None),
    };
    let message = e.to_string();
    let Some(template) = template else {
        return message;
    };
    let path = path.map(|p| p.display().to_string()).unwrap_or_default();
    let mime = match e {
        Error::Binary { mime, .. } => mime.as_str(),
        _ => "",
    };
    let [cwd, abs, ext, did_you_mean] = place.values();
    fill(
        template,
        &[
            ("path", &path.as_str()),
            ("message", &message.as_str()),
            ("mime", &mime),
            cwd,
            abs,
            ext,
            did_you_mean,
            ("dirs", &dirs),
        ],
    )
}

/// What a text answer shows of a read, worked out once before a word is written.
struct Shown<'a> {
    r: &'a ReadResult,
    /// A byte selection: spans are bytes, not lines.
    bytes: bool,
    /// Part of the file was left out (or the read was cut).
    partial: bool,
    /// The file's line count as the text writes it (`?`: not counted).
    total: String,
    /// The path as the answer shows it.
    path: String,
    /// The budget that cut the read is the host's, and nothing cut it shorter (a clip
    /// of the agent's own, whose notice says so).
    host_budget: bool,
    /// The file's line count as the tool counts it, where it differs
    /// ([`AnswerRecord::tool_total_lines`]).
    tool_total: Option<u64>,
    /// The empty line after the file's final line feed is shown
    /// ([`AnswerRecord::empty_line`]).
    empty_line: bool,
    /// The host's line-length budget cut lines ([`AnswerRecord::host_line_budget`]).
    host_lines: bool,
    /// A CR before each line feed is dropped from numbered lines (`strip_cr`), and from
    /// the content shown as it is too (`strip_raw`).
    strip_cr: bool,
    strip_raw: bool,
}

impl<'a> Shown<'a> {
    fn of(d: &Dialect, plan: &Plan, r: &'a ReadResult, record: &AnswerRecord) -> Shown<'a> {
        let strip_raw = d.output.strip_cr_for.contains(&plan.way.role());
        Shown {
            r,
            bytes: matches!(plan.selection, Selection::Bytes(_)),
            partial: r.is_partial || r.truncated.is_some(),
            total: r
                .total_lines
                .map_or_else(|| "?".to_string(), |n| n.to_string()),
            path: shown_path(d, r),
            host_budget: record.host_budget,
            tool_total: record.tool_total_lines,
            empty_line: record.empty_line,
            host_lines: record.host_line_budget,
            strip_cr: d.output.strip_cr || strip_raw,
            strip_raw,
        }
    }
}

/// The text form: header, numbered lines with cut markers, footer, notes, outline.
fn text(
    d: &Dialect,
    plan: &Plan,
    r: &ReadResult,
    outline: Option<&Outline>,
    record: &AnswerRecord,
) -> String {
    let o = &d.output;
    // An empty file, or one that holds only a byte order mark (at most 4 bytes).
    if r.file_size == 0 || (r.bom && r.file_size <= 4 && r.content.is_empty()) {
        if let Some(e) = &o.empty {
            return fill(e, &[("path", &shown_path(d, r))]);
        }
    }
    let s = Shown::of(d, plan, r, record);
    let mut out = String::with_capacity(r.content.len() + r.content.len() / 4 + 64);
    out.extend(crate::tool::render::notes::clamped_note(
        d,
        plan,
        r.total_lines,
    ));
    write_header(&mut out, d, plan, &s);
    write_lines(&mut out, d, plan, &s);
    if let Some(t) = &o.more {
        // A tool that says only that the file goes on says it for a host's cut too.
        let host_cut = s.host_budget && o.truncated.is_none();
        crate::tool::render::notes::more(&mut out, t, r, host_cut);
    }
    if let Some(f) = &o.footer {
        out.push_str(f);
    }
    write_truncated(&mut out, d, &s);
    if s.partial || s.bytes {
        if let Some(p) = &o.partial_note {
            out.push_str(p);
        }
    }
    if let (Some(form), Some(outline)) = (&o.outline, outline) {
        write_outline(&mut out, form, outline);
    }
    out
}

/// The header, and the header of a partial read.
fn write_header(out: &mut String, d: &Dialect, plan: &Plan, s: &Shown) {
    let (o, r) = (&d.output, s.r);
    if let Some(h) = &o.header {
        let range = match (s.bytes, s.partial, r.lines) {
            (true, _, _) => o
                .byte_range
                .as_deref()
                .map(|t| span(t, r.bytes.start, r.bytes.end)),
            _ if o.range_asked => crate::tool::render::notes::asked_range(o, plan),
            (false, true, Some(l)) => o.range.as_deref().map(|t| span(t, l.start, l.end)),
            _ => None,
        };
        let lang = language_for(Path::new(&r.path)).unwrap_or("");
        let (start, end) = r.lines.map_or((0, 0), |l| (l.start, l.end));
        fill_into(
            out,
            h,
            &[
                ("path", &content::escaped(&s.path, &o.escape_path).as_ref()),
                ("range", &range.unwrap_or_default()),
                ("lang", &lang),
                ("start", &start),
                ("end", &end),
                ("total", &s.total),
            ],
        );
    }
    if let (Some(h), false, Some(l)) = (&o.partial_header, s.bytes, r.lines) {
        // Split on `\n`, a final line feed has an empty line after it: counted in the
        // tool's total, in the range when shown.
        let end = l.end + u64::from(d.lines.split_lines && s.empty_line);
        let (total, partial) = match s.tool_total {
            Some(t) => (
                t.to_string(),
                l.start > 1 || end < t || r.truncated.is_some(),
            ),
            None => (s.total.clone(), s.partial),
        };
        if partial || !r.cut_lines.is_empty() {
            fill_into(
                out,
                h,
                &[
                    ("start", &l.start),
                    ("end", &end),
                    ("total", &total),
                    ("next", &(end + 1)),
                ],
            );
        }
    }
}

/// The content: numbered lines, the lines as they are, or the text clipped and escaped.
fn write_lines(out: &mut String, d: &Dialect, plan: &Plan, s: &Shown) {
    let (o, r) = (&d.output, s.r);
    let line = if plan.numbered {
        o.line.as_deref()
    } else {
        o.unnumbered_line.as_deref()
    };
    match line {
        Some(t) if !s.bytes || o.number_bytes => {
            let split = d.lines.split_lines || (d.lines.split_whole && !plan.ranged());
            numbered(out, d, t, plan, s, split)
        }
        _ if s.strip_raw => {
            let text = match s.host_lines {
                true => content::host_marked(d, r, r.content.as_str().into()),
                false => r.content.as_str().into(),
            };
            for (body, ended) in crate::text::split_lines(&text) {
                out.push_str(body);
                if ended {
                    out.push('\n');
                }
            }
        }
        _ => {
            let text = content::clipped(d, r);
            let text = match s.host_lines {
                true => content::host_marked(d, r, text),
                false => text,
            };
            out.push_str(&content::escaped(&text, &o.escape_lines));
            if s.bytes && o.header.is_some() && !r.content.is_empty() && !r.content.ends_with('\n')
            {
                out.push('\n');
            }
        }
    }
    if o.no_final_newline_for.contains(&plan.way.role())
        && !r.content.is_empty()
        && out.ends_with('\n')
    {
        out.pop();
    }
}

/// Where a read cut by a budget stopped and where to continue, in the dialect's words
/// (its continuation, for a budget the agent does not have).
fn write_truncated(out: &mut String, d: &Dialect, s: &Shown) {
    let (o, r) = (&d.output, s.r);
    let Some(t) = r.truncated else {
        return;
    };
    let next = match t.next_start_line {
        Some(n) => fill(&o.next_line, &[("line", &n), ("skip", &(n - 1))]),
        None => fill(&o.next_byte, &[("byte", &t.next_start_byte)]),
    };
    let budget = budget_text(t.reason, t.limit);
    let size = r.file_size.to_string();
    // The tool's own count (split on `\n`, the empty line after a final line feed).
    let split_total = s
        .tool_total
        .map_or_else(|| s.total.clone(), |t| t.to_string());
    let (template, start, end, of) = match (s.bytes || r.lines.is_none(), r.lines) {
        (false, Some(l)) => (o.truncated.as_ref(), l.start, l.end, split_total.as_str()),
        _ => (
            o.truncated_bytes.as_ref().or(o.truncated.as_ref()),
            r.bytes.start,
            r.bytes.end,
            size.as_str(),
        ),
    };
    // A budget the agent does not have: its own texts cannot say where to go on.
    let template = template.or(o.continuation.as_ref().filter(|_| s.host_budget));
    if let Some(template) = template {
        fill_into(
            out,
            template,
            &[
                ("start", &start),
                ("end", &end),
                ("total", &of),
                ("next", &next),
                ("budget", &budget),
                ("path", &s.path.as_str()),
            ],
        );
    }
}

/// The outline of the file's definitions after the lines.
fn write_outline(out: &mut String, form: &OutlineForm, outline: &Outline) {
    if outline.landmarks.is_empty() {
        return;
    }
    out.push_str(&form.title);
    for l in &outline.landmarks {
        fill_into(
            out,
            &form.entry,
            &[("line", &l.line), ("text", &l.text.as_str())],
        );
    }
    if !outline.complete {
        fill_into(out, &form.incomplete, &[("lines", &outline.scanned_lines)]);
    }
    out.push_str(&form.end);
}

/// `{start}` and `{end}` of a range label.
fn span(template: &str, start: u64, end: u64) -> String {
    fill(template, &[("start", &start), ("end", &end)])
}

/// Each line of the content through the line template, with cut markers, and the empty
/// line after a final line feed where the record says it is shown; `split`: the tool
/// splits on `\n` (the numbers' width counts that line).
fn numbered(out: &mut String, d: &Dialect, template: &str, plan: &Plan, s: &Shown, split: bool) {
    let (o, r, strip_cr) = (&d.output, s.r, s.strip_cr);
    // A cut by the host's line budget says where the rest starts, whatever the dialect's.
    let host_marker = s.host_lines.then(|| content::host_cut_marker(d));
    let text = content::clipped(d, r);
    let text = match d.lines.ranged_python_line_ends && plan.ranged() {
        true => crate::text::python_line_ends(text),
        false => text,
    };
    let cuts: HashMap<u64, &CutLine> = r.cut_lines.iter().map(|c| (c.line, c)).collect();
    let first = if plan.number_from_zero {
        Some(0)
    } else {
        r.lines.map(|l| l.start)
    };
    // `{n:>width}`: the width of the largest number shown.
    let last = first.map_or(0, |f| {
        f + r.lines.map_or(0, |l| l.end - l.start) + u64::from(split)
    });
    let width = last.to_string().len();
    let mut next = first;
    for (i, line) in lines_of(&text).enumerate() {
        if i > 0 && !o.final_newline {
            out.push('\n');
        }
        let n = first.map(|f| f + i as u64);
        // A CR is the line end's before an LF; one that ends the file, as the dialect says.
        let ended = line.as_ptr() as usize - text.as_ptr() as usize + line.len() < text.len();
        let line = if strip_cr && (ended || !o.keep_final_cr) {
            line.strip_suffix('\r').unwrap_or(line)
        } else {
            line
        };
        let (line, byte_cut) = match content::byte_cut(d, line) {
            Some((kept, more)) => (kept, more),
            None => (line, 0),
        };
        let line = content::escaped(line, &o.escape_lines);
        let line = line.as_ref();
        match n {
            Some(n) => fill_into(
                out,
                template,
                &[("n", &n), ("line", &line), ("width", &width)],
            ),
            None => fill_into(out, template, &[("n", &"?"), ("line", &line)]),
        }
        let cut = n.and_then(|n| cuts.get(&n));
        let marker = match (cut, &host_marker) {
            (Some(_), Some(m)) => Some(m.as_ref()),
            _ => o.cut_marker.as_deref(),
        };
        if let (Some(marker), true) = (marker, cut.is_some() || byte_cut > 0) {
            let max = o.line_max_bytes.unwrap_or(d.limits.max_line_chars);
            match cut {
                // Where the rest starts is known for lines the reader cut.
                Some(c) => content::mark(out, marker, c, byte_cut, max),
                None => fill_into(out, marker, &[("more", &byte_cut), ("max", &max)]),
            }
        }
        if o.final_newline {
            out.push('\n');
        }
        next = n.map(|n| n + 1);
    }
    if o.keep_line_ends && !o.final_newline && text.ends_with('\n') {
        out.push('\n');
    }
    if s.empty_line {
        if !text.is_empty() && !o.final_newline {
            out.push('\n');
        }
        if let Some(n) = next {
            fill_into(
                out,
                template,
                &[("n", &n), ("line", &""), ("width", &width)],
            );
        }
        if o.final_newline {
            out.push('\n');
        }
    }
}

/// The path an answer shows.
fn shown_path(d: &Dialect, r: &ReadResult) -> String {
    match d.paths.show {
        PathShow::Relative => r.path.clone(),
        PathShow::Absolute => r.resolved_path.clone(),
    }
}

/// Cursor's `session_read_file` JSON.
fn session(
    d: &Dialect,
    session: Option<String>,
    requested: Option<(u64, u64)>,
    r: ReadResult,
) -> SessionReadFileResponse {
    let omitted = r.omitted.clone().unwrap_or_default();
    let mut notes: Vec<String> = Vec::new();
    if !omitted.summary.is_empty() {
        notes.push(omitted.summary.clone());
    }
    if let Some(t) = r.truncated {
        let shown = match (r.lines, r.total_lines) {
            (Some(l), Some(n)) => format!("Showing lines {}-{} of {n}", l.start, l.end),
            (Some(l), None) => format!("Showing lines {}-{}", l.start, l.end),
            _ => format!(
                "Showing bytes {}-{} of {}",
                r.bytes.start, r.bytes.end, r.file_size
            ),
        };
        let budget = format!("stopped by the {}", budget_text(t.reason, t.limit));
        let next = match t.next_start_line {
            Some(n) => fill(&d.output.next_line, &[("line", &n)]),
            None => fill(&d.output.next_byte, &[("byte", &t.next_start_byte)]),
        };
        notes.push(format!("{shown}: {budget}; continue with {next}."));
    }
    notes.extend(crate::render::cut_notes(&r.cut_lines, ": see cutLines"));
    let resolved = shown_path(d, &r);
    SessionReadFileResponse {
        success: true,
        path: r.path,
        session: session.unwrap_or_default(),
        resolved_path: resolved,
        total_lines: r.total_lines,
        lines_read: r.lines.map(|l| LinesRead {
            start: l.start,
            end: l.end,
        }),
        lines_requested: requested.map(|(start, end)| LinesRead { start, end }),
        omitted_content: OmittedContent {
            before_lines: omitted.before_lines.unwrap_or(0),
            after_lines: omitted.after_lines.unwrap_or(0),
            summary: notes.join(" "),
        },
        cut_lines: r.cut_lines.iter().map(CutLineInfo::from).collect(),
        content: r.content,
    }
}

/// What the unified tool sends a host beside the text ([`ReadMetadata`]).
pub(crate) fn metadata<'a>(result: &'a ReadResult, root: Option<&Path>) -> ReadMetadata<'a> {
    use crate::result::Adjustments;
    use crate::tool::render::shapes::FingerprintMeta;
    let resolved = match root.and_then(|r| Path::new(&result.resolved_path).strip_prefix(r).ok()) {
        Some(relative) => relative.to_string_lossy().into_owned(),
        // Outside a workspace the path is the caller's own.
        None if root.is_none() => result.resolved_path.clone(),
        None => result.path.clone(),
    };
    let adjusted = result.adjustments != Adjustments::default();
    ReadMetadata {
        resolved_path: resolved,
        file_size: result.file_size,
        total_lines: record::counted_total(result),
        encoding: &result.encoding,
        bom: result.bom,
        encoding_confidence: (result.encoding_confidence < 1.0)
            .then_some(result.encoding_confidence),
        line_ending: result.line_ending,
        lines: result.lines,
        bytes: result.bytes,
        requested: adjusted.then_some(&result.requested),
        adjustments: adjusted.then_some(&result.adjustments),
        truncated: result.truncated.as_ref(),
        cut_lines: &result.cut_lines,
        is_partial: result.is_partial,
        invalid_utf8: result.invalid_utf8.as_ref(),
        fingerprint: FingerprintMeta {
            modified_ns: result.modified_ns(),
            content_hash: crate::result::content_hash(result.raw_bytes()).into(),
        },
    }
}

/// The budget a read reached, as a note names it: `line limit (2000 lines per call)`,
/// `size budget (100 KiB per call)`; the value is the one applied to the read
/// ([`crate::Truncation::limit`]), whoever set it.
pub(crate) fn budget_text(reason: TruncationReason, limit: u64) -> String {
    match reason {
        TruncationReason::MaxLines => format!("line limit ({limit} lines per call)"),
        TruncationReason::MaxBytes => {
            let size = if limit > 0 && limit.is_multiple_of(1 << 20) {
                format!("{} MiB", limit >> 20)
            } else if limit > 0 && limit.is_multiple_of(1024) {
                format!("{} KiB", limit >> 10)
            } else {
                format!("{limit} bytes")
            };
            format!("size budget ({size} per call)")
        }
    }
}
