//! Keyword options, as a JSON object, to the library's builders: one owner of the
//! mapping for every language.
//!
//! Each function takes the options a caller passed (Python keyword arguments, a Node
//! options object), refuses unknown ones naming them and the known ones, and checks each
//! value's type, naming the option as the caller spelled it (`maxLines` or `max_lines`).

use std::path::Path;
use std::sync::Arc;

use rangeread::images::{Crop, ImagePolicy, ImageRequest};
use rangeread::notebook::CellSelection;
use rangeread::pdf::PageSelection;
use rangeread::{
    ByteSelection, CodecTables, ControlBytes, Detection, DocumentRequest, EncodingPolicy,
    IndexCache, LineEndings, LineSelection, LineUnit, NulBytes, OutlineDetail, Reader, Selection,
    Snap, SpecialFiles, Totals, Utf8Policy,
};
use serde_json::{Map, Value};

use crate::error::BindError;

mod scope;
pub use scope::{dialect, tool, workspace};

/// By default a binding's reader keeps the line indexes, classifications and landmarks
/// of the files it read (64 MiB at most): a host holds one reader for its tool's life
/// and reads the same files again and again.
pub const DEFAULT_CACHE_BYTES: u64 = 64 << 20;

/// How many spent content buffers a reader keeps for its next reads, and the largest it
/// keeps ([`rangeread::BufferPool`]): a binding hands a text read's buffer back once the
/// language's string is made, so that a host reading large files again and again fills
/// memory that is already there (the system faults fresh pages in otherwise: for a whole
/// 1 MiB read, a quarter of the call). At most 8 MiB kept, none under 1 KiB.
pub const POOL_BUFFERS: usize = 2;

/// See [`POOL_BUFFERS`].
pub const POOL_BUFFER_BYTES: usize = 4 << 20;

/// The options of one call: each taken at most once; what is left at the end is
/// unknown.
struct Opts {
    /// (snake_case name, the caller's spelling, value); nulls are left out (a missing
    /// keyword and `None` / `undefined` mean the default).
    given: Vec<(String, String, Value)>,
    what: &'static str,
}

/// `maxLines` → `max_lines`.
fn snake(name: &str) -> String {
    let mut out = String::with_capacity(name.len() + 4);
    for c in name.chars() {
        if c.is_ascii_uppercase() {
            out.push('_');
            out.push(c.to_ascii_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}

/// `max_lines` → `maxLines`, for messages that list the options.
fn camel(name: &str) -> String {
    let mut out = String::new();
    let mut up = false;
    for c in name.chars() {
        if c == '_' {
            up = true;
        } else if up {
            out.push(c.to_ascii_uppercase());
            up = false;
        } else {
            out.push(c);
        }
    }
    out
}

impl Opts {
    fn new(options: Value, what: &'static str) -> Result<Opts, BindError> {
        let map = match options {
            Value::Null => Map::new(),
            Value::Object(m) => m,
            other => {
                return Err(BindError::option(
                    "options",
                    format!("The {what} options must be an object of named options, not {other}"),
                ))
            }
        };
        let given = map
            .into_iter()
            .filter(|(_, v)| !v.is_null())
            .map(|(k, v)| (snake(&k), k, v))
            .collect();
        Ok(Opts { given, what })
    }

    /// Takes option `name` (snake_case) out: (the caller's spelling, value).
    fn take(&mut self, name: &str) -> Option<(String, Value)> {
        let i = self.given.iter().position(|(n, _, _)| n == name)?;
        let (_, spelled, v) = self.given.remove(i);
        Some((spelled, v))
    }

    fn u64(&mut self, name: &str) -> Result<Option<u64>, BindError> {
        self.take(name)
            .map(|(spelled, v)| {
                whole(&v).ok_or_else(|| {
                    BindError::option(
                        &spelled,
                        format!("{spelled} must be a non-negative integer, not {v}"),
                    )
                })
            })
            .transpose()
    }

    fn bool(&mut self, name: &str) -> Result<Option<bool>, BindError> {
        self.take(name)
            .map(|(spelled, v)| {
                v.as_bool().ok_or_else(|| {
                    BindError::option(
                        &spelled,
                        format!("{spelled} must be true or false, not {v}"),
                    )
                })
            })
            .transpose()
    }

    fn string(&mut self, name: &str) -> Result<Option<(String, String)>, BindError> {
        self.take(name)
            .map(|(spelled, v)| match v {
                Value::String(s) => Ok((spelled, s)),
                other => Err(BindError::option(
                    &spelled,
                    format!("{spelled} must be a string, not {other}"),
                )),
            })
            .transpose()
    }

    /// Fails naming what was not taken, and the options there are.
    fn done(self, known: &[&str]) -> Result<(), BindError> {
        let Some((_, spelled, _)) = self.given.first() else {
            return Ok(());
        };
        let camel_case = spelled.chars().any(|c| c.is_ascii_uppercase());
        let names: Vec<String> = known
            .iter()
            .map(|n| if camel_case { camel(n) } else { n.to_string() })
            .collect();
        Err(BindError::option(
            spelled,
            format!(
                "Unknown {} option {spelled:?}; the options are {}",
                self.what,
                names.join(", ")
            ),
        ))
    }
}

/// A non-negative integer, also as an integral float (JavaScript has no integers).
fn whole(v: &Value) -> Option<u64> {
    v.as_u64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && *f >= 0.0 && *f <= u64::MAX as f64)
            .map(|f| f as u64)
    })
}

fn signed(v: &Value) -> Option<i64> {
    v.as_i64().or_else(|| {
        v.as_f64()
            .filter(|f| f.fract() == 0.0 && f.abs() <= i64::MAX as f64)
            .map(|f| f as i64)
    })
}

/// The options a reader takes that a call may also give, for that call only: the
/// budgets and the text policies.
const POLICY_OPTIONS: &[&str] = &[
    "max_lines",
    "max_bytes",
    "max_line_chars",
    "line_unit",
    "strict_utf8",
    "detection",
    "encoding",
    "nul_bytes",
    "control_bytes",
    "codec_tables",
    "invalid_utf8_binary",
    "line_endings",
    "totals",
];

const READER_OPTIONS: &[&str] = &[
    "max_lines",
    "max_bytes",
    "max_line_chars",
    "line_unit",
    "strict_utf8",
    "detection",
    "encoding",
    "nul_bytes",
    "control_bytes",
    "codec_tables",
    "invalid_utf8_binary",
    "line_endings",
    "totals",
    "summaries",
    "max_landmarks",
    "landmark_window",
    "max_scan_bytes",
    "threads",
    "retries",
    "members",
    "special_files",
    "cache_bytes",
    "index_dir",
];

/// The three budgets among the options (`max_lines`, `max_bytes`, `max_line_chars`), set
/// on `r`: a reader's, or a `DialectTool`'s host budgets.
fn budgets(o: &mut Opts, mut r: Reader) -> Result<Reader, BindError> {
    if let Some(n) = o.u64("max_lines")? {
        r = r.max_lines(n);
    }
    if let Some(n) = o.u64("max_bytes")? {
        r = r.max_bytes(n);
    }
    if let Some(n) = o.u64("max_line_chars")? {
        r = r.max_line_chars(n);
    }
    Ok(r)
}

/// The budgets and text policies among the options ([`POLICY_OPTIONS`]), set on `r`.
fn policies(o: &mut Opts, r: Reader) -> Result<Reader, BindError> {
    let mut r = budgets(o, r)?;
    if let Some((spelled, u)) = o.string("line_unit")? {
        r = r.line_unit(choice::<LineUnit>(&spelled, &u)?);
    }
    if let Some(strict) = o.bool("strict_utf8")? {
        r = r.utf8_policy(if strict {
            Utf8Policy::Strict
        } else {
            Utf8Policy::Lossy
        });
    }
    if let Some((spelled, d)) = o.string("detection")? {
        r = r.detection(choice::<Detection>(&spelled, &d)?);
    }
    if let Some((spelled, e)) = o.string("encoding")? {
        r = r.encoding(choice::<EncodingPolicy>(&spelled, &e)?);
    }
    if let Some((spelled, n)) = o.string("nul_bytes")? {
        r = r.nul_bytes(choice::<NulBytes>(&spelled, &n)?);
    }
    if let Some((spelled, c)) = o.string("control_bytes")? {
        r = r.control_bytes(choice::<ControlBytes>(&spelled, &c)?);
    }
    if let Some((spelled, t)) = o.string("codec_tables")? {
        r = r.codec_tables(choice::<CodecTables>(&spelled, &t)?);
    }
    if let Some((spelled, v)) = o.take("invalid_utf8_binary") {
        let share = v.as_f64().filter(|f| (0.0..=1.0).contains(f)).ok_or_else(|| {
            BindError::option(
                &spelled,
                format!("{spelled} must be a share from 0 to 1 (0.1: more than 10% of the sample invalid), not {v}"),
            )
        })?;
        r = r.invalid_utf8_binary(Some(share));
    }
    if let Some((spelled, l)) = o.string("line_endings")? {
        r = r.line_endings(choice::<LineEndings>(&spelled, &l)?);
    }
    if let Some((spelled, t)) = o.string("totals")? {
        r = r.totals(choice::<Totals>(&spelled, &t)?);
    }
    Ok(r)
}

/// A [`Reader`] from its options: `max_lines`, `max_bytes`, `max_line_chars` (0: no
/// limit), `line_unit` (`chars`, `utf16`, `bytes`), `strict_utf8`, `detection` (`auto`,
/// `nul_means_binary`, `assume_utf8`, `byte_order_mark`, `utf16le_mark`, `magic_only`), `encoding`
/// (`detect`, `no_legacy`, `utf8_first`, or a label such as `windows-1252`), `nul_bytes` (`in_sample`,
/// `in_read`), `control_bytes` (`share`, `tolerated`, `in_head`, `sample_shares`,
/// `suspicious_share`), `codec_tables` (`whatwg`, `python`: whose tables decode a legacy
/// encoding), `invalid_utf8_binary` (a share,
/// 0 to 1), `line_endings` (`keep`, `lf`, `universal`), `totals` (`auto`, `if_known`, `always`),
/// `summaries`, `max_landmarks`, `landmark_window`, `max_scan_bytes`, `threads`,
/// `retries`, `members` (outlines list a type's fields and variants), `special_files`
/// (`never_read`, the default: a FIFO or device is opened once without blocking and
/// refused by its type; `never_opened`: never opened at all), `cache_bytes` (the
/// index cache, by default [`DEFAULT_CACHE_BYTES`]; 0: none) and `index_dir` (a
/// directory that keeps line indexes across processes). Every reader keeps a few spent
/// content buffers for its next reads ([`POOL_BUFFERS`]; [`Reader::recycle`] hands one
/// back).
///
/// # Errors
///
/// An unknown option, or a value of the wrong type (kind `invalid_params`, naming it).
pub fn reader(options: Value) -> Result<Reader, BindError> {
    let mut o = Opts::new(options, "Reader")?;
    let pool = rangeread::BufferPool::new(POOL_BUFFERS, POOL_BUFFER_BYTES);
    let mut r = policies(&mut o, Reader::new().buffers(Arc::new(pool)))?;
    if let Some(on) = o.bool("summaries")? {
        r = r.summaries(on);
    }
    if let Some(n) = o.u64("max_landmarks")? {
        r = r.max_landmarks(n);
    }
    if let Some(n) = o.u64("landmark_window")? {
        r = r.landmark_window(n);
    }
    if let Some(n) = o.u64("max_scan_bytes")? {
        r = r.max_scan_bytes(n);
    }
    if let Some(n) = o.u64("threads")? {
        r = r.threads(n as usize);
    }
    if let Some(n) = o.u64("retries")? {
        r = r.retries(n.min(u32::MAX as u64) as u32);
    }
    if o.bool("members")? == Some(true) {
        r = r.outline_detail(OutlineDetail::Members);
    }
    if let Some((spelled, v)) = o.string("special_files")? {
        r = r.special_files(choice::<SpecialFiles>(&spelled, &v)?);
    }
    let cache_bytes = o.u64("cache_bytes")?.unwrap_or(DEFAULT_CACHE_BYTES);
    let index_dir = o.string("index_dir")?;
    if cache_bytes > 0 || index_dir.is_some() {
        let budget = usize::try_from(cache_bytes.max(1 << 20)).unwrap_or(usize::MAX);
        let cache = match index_dir {
            None => IndexCache::new(budget),
            Some((_, dir)) => IndexCache::new(budget).with_dir(Path::new(&dir), 256 << 20)?,
        };
        r = r.cache(Arc::new(cache));
    }
    o.done(READER_OPTIONS)?;
    Ok(r)
}

/// One of a small set of snake_case names, as serde names the library's enums.
fn choice<T: serde::de::DeserializeOwned>(spelled: &str, v: &str) -> Result<T, BindError> {
    serde_json::from_value(Value::String(v.to_string()))
        .map_err(|e| BindError::option(spelled, format!("{spelled}: {e}")))
}

/// What a read asks for.
#[derive(Debug, Clone)]
pub enum Request {
    /// Lines or bytes of a text file.
    Text(Selection),
    /// The landmarks of the whole file.
    Outline,
    /// A file of any kind: text, an image, PDF pages, notebook cells.
    Document(Box<DocumentRequest>),
}

const SELECTIONS: &[&str] = &[
    "lines", "bytes", "offset", "head", "tail", "around", "block", "outline",
];

const READ_OPTIONS: &[&str] = &[
    "lines",
    "bytes",
    "snap",
    "offset",
    "limit",
    "head",
    "tail",
    "around",
    "context",
    "block",
    "outline",
    "max_lines",
    "max_bytes",
    "max_line_chars",
    "line_unit",
    "strict_utf8",
    "detection",
    "encoding",
    "nul_bytes",
    "control_bytes",
    "codec_tables",
    "invalid_utf8_binary",
    "line_endings",
    "totals",
];

const DOCUMENT_OPTIONS: &[&str] = &[
    "lines",
    "bytes",
    "snap",
    "offset",
    "limit",
    "head",
    "tail",
    "around",
    "context",
    "block",
    "pages",
    "cells",
    "crop",
    "image_policy",
    "max_lines",
    "max_bytes",
    "max_line_chars",
    "line_unit",
    "strict_utf8",
    "detection",
    "encoding",
    "nul_bytes",
    "control_bytes",
    "codec_tables",
    "invalid_utf8_binary",
    "line_endings",
    "totals",
];

/// One call's reader and request: the budgets and text policies it gives
/// ([`POLICY_OPTIONS`]: `max_lines`, `encoding`, `line_endings`, `totals` ...) over
/// `reader`'s, for this call only, and the rest read as [`request`] reads them.
///
/// # Errors
///
/// As [`reader`] and [`request`].
pub fn text_call(reader: &Reader, options: Value) -> Result<(Reader, Request), BindError> {
    let (reader, rest) = split_policies(reader, options)?;
    Ok((reader, request(rest)?))
}

/// [`text_call`] for a document read ([`document_request`]).
///
/// # Errors
///
/// As [`reader`] and [`document_request`].
pub fn document_call(reader: &Reader, options: Value) -> Result<(Reader, Request), BindError> {
    let (reader, rest) = split_policies(reader, options)?;
    Ok((reader, document_request(rest)?))
}

/// The classification of the file at `path` by `reader`'s rules and the call's
/// ([`POLICY_OPTIONS`]), as JSON: `{"verdict": "text", "encoding", "bom_len",
/// "confidence", "mime"}` or `{"verdict": "binary", "mime", "reason"}`.
///
/// # Errors
///
/// An unknown option, a value of the wrong type, or the file cannot be opened (not
/// found, a directory ...).
pub fn classify(reader: &Reader, path: &Path, options: Value) -> Result<Value, BindError> {
    let mut o = Opts::new(options, "classify")?;
    let r = policies(&mut o, reader.clone())?;
    o.done(POLICY_OPTIONS)?;
    let c = r.classify_file(path)?;
    Ok(serde_json::to_value(c).unwrap_or(Value::Null))
}

/// The call's policies set over a clone of `reader`, and the options left.
fn split_policies(reader: &Reader, options: Value) -> Result<(Reader, Value), BindError> {
    let mut o = Opts::new(options, "read")?;
    let mut mine = Opts {
        given: Vec::new(),
        what: o.what,
    };
    o.given.retain(|g| {
        let policy = POLICY_OPTIONS.contains(&g.0.as_str());
        if policy {
            mine.given.push(g.clone());
        }
        !policy
    });
    let r = if mine.given.is_empty() {
        reader.clone()
    } else {
        policies(&mut mine, reader.clone())?
    };
    let rest: Map<String, Value> = o.given.into_iter().map(|(_, k, v)| (k, v)).collect();
    Ok((r, Value::Object(rest)))
}

/// A text read's selection from its options, in the contract's forms: `lines` (bat's
/// `"40:+2"`, `"-5:"`, or a `[start, end]` pair, either side null, negative from the
/// end), `bytes` (`"A:B"` or `[start, end]`, with `snap` `char` or `line`), `offset` with
/// `limit`, `head`, `tail`, `around` with `context` (10 by default), `block`, or
/// `outline: true`. At most one of them; none reads the whole file (within the budgets).
///
/// # Errors
///
/// Two selections at once, an unknown option, a malformed value (kind
/// `invalid_params` or `invalid_range`).
pub fn request(options: Value) -> Result<Request, BindError> {
    let mut o = Opts::new(options, "read")?;
    let outline = o.bool("outline")?;
    let r = match outline {
        Some(true) => {
            if let Some((_, spelled, _)) = o.given.first() {
                return Err(BindError::option(
                    spelled,
                    format!("outline reads the whole file: it takes no {spelled}"),
                ));
            }
            Request::Outline
        }
        _ => Request::Text(selection(&mut o)?.unwrap_or_default()),
    };
    o.done(READ_OPTIONS)?;
    Ok(r)
}

/// A document read's request from its options: a text selection as [`request`] takes
/// it, `pages` (`"3"`, `"2-9"`, `"10-"`, PDF pages from 1), `cells` (`"0-4"` or a cell id,
/// notebook cells from 0), `crop` (`"x,y,w,h"` in the image's pixels) and `image_policy`
/// (`anthropic`, `claude-code`, `openai`, `gemini`, `none`).
///
/// # Errors
///
/// As [`request`], and a malformed page, cell or crop text.
pub fn document_request(options: Value) -> Result<Request, BindError> {
    let mut o = Opts::new(options, "read_document")?;
    let mut d = DocumentRequest::new();
    if let Some(s) = selection(&mut o)? {
        d = d.selection(s);
    }
    if let Some((_, p)) = o.string("pages")? {
        d = d.pages(p.parse::<PageSelection>()?);
    }
    if let Some((_, c)) = o.string("cells")? {
        d = d.cells(c.parse::<CellSelection>()?);
    }
    let policy = match o.string("image_policy")? {
        None => None,
        Some((spelled, name)) => Some(ImagePolicy::preset(&name).ok_or_else(|| {
            BindError::option(
                &spelled,
                format!(
                    "Unknown {spelled} {name:?}; the policies are anthropic, claude-code, openai, gemini, none"
                ),
            )
        })?),
    };
    let crop = o
        .string("crop")?
        .map(|(_, c)| c.parse::<Crop>())
        .transpose()?;
    if policy.is_some() || crop.is_some() {
        let mut image = ImageRequest::new(policy.unwrap_or_default());
        if let Some(c) = crop {
            image = image.crop(c);
        }
        d = d.image(image);
    }
    o.done(DOCUMENT_OPTIONS)?;
    Ok(Request::Document(Box::new(d)))
}

/// The one selection among the options, if any.
fn selection(o: &mut Opts) -> Result<Option<Selection>, BindError> {
    let present: Vec<String> = o
        .given
        .iter()
        .filter(|(n, _, _)| SELECTIONS.contains(&n.as_str()))
        .map(|(_, s, _)| s.clone())
        .collect();
    if present.len() > 1 {
        return Err(BindError::option(
            &present[1],
            format!(
                "Give one selection, not {}: lines, bytes, offset (with limit), head, tail, around (with context), block or outline",
                present.join(" and ")
            ),
        ));
    }
    let limit = o.u64("limit")?;
    let context = o.u64("context")?;
    let snap = o.string("snap")?;
    let lonely = |name: &str, with: &str| {
        BindError::option(
            name,
            format!("{name} goes with {with}; add {with} or leave {name} out"),
        )
    };
    let sel: Option<Selection> = if let Some((spelled, v)) = o.take("lines") {
        Some(lines(&spelled, &v)?.into())
    } else if let Some((spelled, v)) = o.take("bytes") {
        let mut b = bytes(&spelled, &v)?;
        if let Some((spelled, s)) = &snap {
            b = b.snap(
                s.parse::<Snap>()
                    .map_err(|e| BindError::option(spelled, e.to_string()))?,
            );
        }
        Some(b.into())
    } else if let Some(offset) = o.u64("offset")? {
        Some(LineSelection::offset_limit(offset, limit).into())
    } else if let Some(n) = o.u64("head")? {
        Some(LineSelection::head(n).into())
    } else if let Some(n) = o.u64("tail")? {
        Some(LineSelection::tail(n).into())
    } else if let Some(line) = o.u64("around")? {
        Some(LineSelection::around(line, context.unwrap_or(10)).into())
    } else {
        o.u64("block")?
            .map(|line| LineSelection::block(line).into())
    };
    let is = |want: &str| present.first().map(|p| snake(p)) == Some(want.to_string());
    if limit.is_some() && !is("offset") {
        return Err(lonely("limit", "offset"));
    }
    if context.is_some() && !is("around") {
        return Err(lonely("context", "around"));
    }
    if snap.is_some() && !is("bytes") {
        return Err(lonely("snap", "bytes"));
    }
    Ok(sel)
}

/// `"40:+2"` or `[start, end]` (null for an open side, negative from the end).
fn lines(spelled: &str, v: &Value) -> Result<LineSelection, BindError> {
    match v {
        Value::String(s) => Ok(LineSelection::parse(s)?),
        Value::Array(pair) if pair.len() == 2 => {
            let side = |x: &Value| -> Result<Option<i64>, BindError> {
                match x {
                    Value::Null => Ok(None),
                    x => signed(x).map(Some).ok_or_else(|| {
                        BindError::option(
                            spelled,
                            format!("{spelled} takes integers or null, not {x}"),
                        )
                    }),
                }
            };
            Ok(LineSelection::range(side(&pair[0])?, side(&pair[1])?))
        }
        other => Err(BindError::option(
            spelled,
            format!("{spelled} must be text such as \"40:+2\" or a [start, end] pair, not {other}"),
        )),
    }
}

/// `"A:B"` or `[start, end]` (null for an open side).
fn bytes(spelled: &str, v: &Value) -> Result<ByteSelection, BindError> {
    match v {
        Value::String(s) => Ok(ByteSelection::parse(s)?),
        Value::Array(pair) if pair.len() == 2 => {
            let side = |x: &Value| -> Result<Option<u64>, BindError> {
                match x {
                    Value::Null => Ok(None),
                    x => whole(x).map(Some).ok_or_else(|| {
                        BindError::option(
                            spelled,
                            format!("{spelled} takes non-negative integers or null, not {x}"),
                        )
                    }),
                }
            };
            Ok(ByteSelection::new(side(&pair[0])?, side(&pair[1])?))
        }
        other => Err(BindError::option(
            spelled,
            format!(
                "{spelled} must be text such as \"0:4096\" or a [start, end] pair, not {other}"
            ),
        )),
    }
}

const WORKSPACE_OPTIONS: &[&str] = &["protect", "case_insensitive", "rule_files"];

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn names_in_either_case() {
        assert_eq!(snake("maxLineChars"), "max_line_chars");
        assert_eq!(camel("max_line_chars"), "maxLineChars");
        let e = reader(json!({"maxLnes": 3})).unwrap_err();
        assert!(e.message.contains("\"maxLnes\""), "{}", e.message);
        assert!(e.message.contains("maxLines"), "{}", e.message);
        let e = reader(json!({"max_lnes": 3})).unwrap_err();
        assert!(e.message.contains("max_lines"), "{}", e.message);
    }

    #[test]
    fn one_selection_at_a_time() {
        let e = request(json!({"head": 3, "tail": 2})).unwrap_err();
        assert_eq!(e.kind, "invalid_params");
        assert!(e.message.contains("head and tail"), "{}", e.message);
        let e = request(json!({"limit": 3})).unwrap_err();
        assert_eq!(e.parameter.as_deref(), Some("limit"));
        assert!(request(json!({"offset": 3, "limit": 2})).is_ok());
        assert!(request(json!({"bytes": [0, null], "snap": "line"})).is_ok());
    }

    #[test]
    fn rule_files_as_paths_or_objects() {
        let dir = std::env::temp_dir().join(format!("rr-bind-rules-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        std::fs::write(dir.join(".geminiignore"), "secret.*\n").unwrap();
        let ws = workspace(&dir, json!({"ruleFiles": [".geminiignore"]})).unwrap();
        assert!(ws.is_protected("secret.txt"));
        assert!(!ws.is_protected("public.txt"));
        let ws = workspace(
            &dir,
            json!({"rule_files": [{"path": ".cursorignore", "syntax": "gitignore", "defaults": ["*.key"]}]}),
        )
        .unwrap();
        assert!(ws.is_protected("a.key"));
        let e = workspace(&dir, json!({"rule_files": [3]})).unwrap_err();
        assert_eq!(e.parameter.as_deref(), Some("rule_files"));
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn wrong_types_name_the_option() {
        let e = reader(json!({"maxLines": -1})).unwrap_err();
        assert_eq!(e.message, "maxLines must be a non-negative integer, not -1");
        let e = request(json!({"lines": true})).unwrap_err();
        assert!(e.message.starts_with("lines must be text"), "{}", e.message);
        assert!(reader(json!({"max_lines": 3.0})).is_ok());
    }
}
