//! A text read's result as a JavaScript object over the Rust result. A whole small file
//! is the call a host makes most: its `content` becomes a string once, when the object is
//! made, straight from the Rust string (no JSON text, no `JSON.parse`), and the Rust
//! string's buffer goes back to the reader there and then (the object holds the text
//! once, in the JavaScript heap; the next read fills the buffer again instead of every
//! result holding its text until the collector finalizes its object). The other fields
//! are made when read; the fingerprint's hash only when asked for.

use napi::bindgen_prelude::{JavaScriptClassExt, JsObjectValue, Object, This, Unknown};
use napi::{sys, Env, JsValue, Property, PropertyAttributes};
use napi_derive::napi;
use rangeread_bindings::rangeread::ReadResult as RustResult;
use rangeread_bindings::{parse_format, rangeread, BindError};
use serde::Serialize;
use serde_json::Value;

/// Lines or bytes of a text file: the fields of the Rust `ReadResult`, in its JSON's
/// names (`resolved_path`, `total_lines`, ...), each made when it is read; `toJSON()`
/// gives them all as a plain object; `render(format)` words the result for a model.
/// `fingerprint.modified_ns` is a string of decimal digits (nanoseconds are past 2^53,
/// where a JavaScript number is no longer exact).
#[napi]
pub struct ReadResult {
    /// The Rust result without its `content`, which is the object's own `content`
    /// property (a read-only string made with the object).
    inner: RustResult,
}

/// The property name of the text.
const CONTENT: &str = "content";

impl ReadResult {
    /// `inner` as a JavaScript `ReadResult`: its text made a string and set as the
    /// object's own read-only `content`, the Rust text's buffer handed back to `reader`
    /// for its next read (or freed).
    pub(crate) fn object<'e>(
        env: &'e Env,
        mut inner: RustResult,
        reader: &rangeread::Reader,
    ) -> napi::Result<Unknown<'e>> {
        let text = std::mem::take(&mut inner.content);
        let content = js_string(env, &text)?;
        reader.recycle(text);
        let made = ReadResult { inner }.into_instance(env)?;
        let mut obj = made.as_object(env);
        // Not enumerable: the object's keys stay those of a class with getters (none of
        // its own); not writable: the text is the result's.
        obj.define_properties(&[Property::new()
            .with_utf8_name(CONTENT)?
            .with_napi_value(env, content)?
            .with_property_attributes(PropertyAttributes::Default)])?;
        Ok(obj.to_unknown())
    }

    /// The whole Rust result of `this` (the object over `self`): the text back from its
    /// `content` property, for what needs it all (its JSON, a rendering, the hash).
    pub(crate) fn whole(&self, this: &Object<'_>) -> napi::Result<RustResult> {
        let mut whole = self.inner.clone();
        whole.content = this.get_named_property(CONTENT)?;
        Ok(whole)
    }
}

/// `v` as JSON (the library's results always serialize).
fn json(v: impl Serialize) -> Value {
    serde_json::to_value(v).expect("the library's results serialize")
}

/// The confidence as the JSON text writes it (`0.99`, not the f32's `0.9900000095...`).
fn confidence(c: f32) -> f64 {
    c.to_string().parse().unwrap_or(f64::from(c))
}

/// A fingerprint's JSON with `modified_ns` exact: a string.
fn fingerprint_json(f: &rangeread::Fingerprint) -> Value {
    let mut v = json(f);
    if let Some(ns) = f.modified_ns {
        v["modified_ns"] = Value::String(ns.to_string());
    }
    v
}

/// A JavaScript string of `text`: copied as Latin-1 when it is ASCII (no decoding; the
/// check is one fast pass), else decoded from UTF-8 by V8.
pub(crate) fn js_string<'e>(env: &'e Env, text: &str) -> napi::Result<Unknown<'e>> {
    let mut raw = std::ptr::null_mut();
    // SAFETY: `text` outlives the call, which copies it into the JavaScript heap.
    let status = unsafe {
        if text.is_ascii() {
            sys::napi_create_string_latin1(
                env.raw(),
                text.as_ptr().cast(),
                text.len() as isize,
                &mut raw,
            )
        } else {
            sys::napi_create_string_utf8(
                env.raw(),
                text.as_ptr().cast(),
                text.len() as isize,
                &mut raw,
            )
        }
    };
    if status != sys::Status::napi_ok {
        return Err(napi::Error::new(
            napi::Status::GenericFailure,
            "a result's content could not be made a string",
        ));
    }
    // SAFETY: `raw` is the string napi just made in this `env`.
    Ok(unsafe { Unknown::from_raw_unchecked(env.raw(), raw) })
}

#[napi]
impl ReadResult {
    /// The path as the caller gave it.
    #[napi(getter)]
    pub fn path(&self) -> &str {
        &self.inner.path
    }

    /// The path that was opened (absolute inside a workspace; else as given).
    #[napi(getter, js_name = "resolved_path")]
    pub fn resolved_path(&self) -> &str {
        &self.inner.resolved_path
    }

    /// The selection's text (UTF-8; U+FFFD where the file's bytes were invalid). Each
    /// result has it as its own property, made with it; this declares it.
    #[napi(getter, ts_return_type = "string")]
    pub fn content<'e>(&self, env: &'e Env) -> napi::Result<Unknown<'e>> {
        js_string(env, &self.inner.content)
    }

    /// Size of the file in bytes.
    #[napi(getter, js_name = "file_size", ts_return_type = "number")]
    pub fn file_size(&self) -> f64 {
        self.inner.file_size as f64
    }

    /// Lines in the file, when known.
    #[napi(getter, js_name = "total_lines", ts_return_type = "number | null")]
    pub fn total_lines(&self) -> Option<f64> {
        self.inner.total_lines.map(|n| n as f64)
    }

    /// The file's text encoding (`utf-8`, `utf-16le`, ... or a legacy encoding's label).
    #[napi(getter)]
    pub fn encoding(&self) -> &str {
        &self.inner.encoding
    }

    /// Whether the file starts with a byte order mark.
    #[napi(getter)]
    pub fn bom(&self) -> bool {
        self.inner.bom
    }

    /// How sure the encoding guess is, from 0 to 1.
    #[napi(getter, js_name = "encoding_confidence")]
    pub fn encoding_confidence(&self) -> f64 {
        confidence(self.inner.encoding_confidence)
    }

    /// How the returned lines end: `lf`, `crlf`, `mixed` or `none`.
    #[napi(
        getter,
        js_name = "line_ending",
        ts_return_type = "'lf' | 'crlf' | 'mixed' | 'none'"
    )]
    pub fn line_ending(&self) -> Value {
        json(self.inner.line_ending)
    }

    /// The lines returned (`null` when none, or their numbers are unknown).
    #[napi(getter, ts_return_type = "LineSpan | null")]
    pub fn lines(&self) -> Value {
        json(self.inner.lines)
    }

    /// The bytes returned, in file offsets.
    #[napi(getter, ts_return_type = "ByteSpan")]
    pub fn bytes(&self) -> Value {
        json(self.inner.bytes)
    }

    /// The selection as asked.
    #[napi(getter, ts_return_type = "ReadResultJson['requested']")]
    pub fn requested(&self) -> Value {
        json(self.inner.requested)
    }

    /// How the returned range differs from the requested one.
    #[napi(getter, ts_return_type = "ReadResultJson['adjustments']")]
    pub fn adjustments(&self) -> Value {
        json(self.inner.adjustments)
    }

    /// Set when a budget stopped the read early.
    #[napi(getter, ts_return_type = "ReadResultJson['truncated']")]
    pub fn truncated(&self) -> Value {
        json(self.inner.truncated)
    }

    /// Lines cut by the line-length budget.
    #[napi(
        getter,
        js_name = "cut_lines",
        ts_return_type = "ReadResultJson['cut_lines']"
    )]
    pub fn cut_lines(&self) -> Value {
        json(&self.inner.cut_lines)
    }

    /// What was left out, for partial reads.
    #[napi(getter, ts_return_type = "ReadResultJson['omitted']")]
    pub fn omitted(&self) -> Value {
        json(&self.inner.omitted)
    }

    /// Whether anything of the file was left out.
    #[napi(getter, js_name = "is_partial")]
    pub fn is_partial(&self) -> bool {
        self.inner.is_partial
    }

    /// Share of the file's bytes returned, in percent (one decimal).
    #[napi(getter, js_name = "percent_of_file")]
    pub fn percent_of_file(&self) -> f64 {
        self.inner.percent_of_file
    }

    /// Invalid sequences replaced under the lossy policy.
    #[napi(
        getter,
        js_name = "invalid_utf8",
        ts_return_type = "ReadResultJson['invalid_utf8']"
    )]
    pub fn invalid_utf8(&self) -> Value {
        json(self.inner.invalid_utf8)
    }

    /// The state of the file this result was read from (`modified_ns` as a string); its
    /// `content_hash` is computed when this is read.
    #[napi(getter, ts_return_type = "Fingerprint")]
    pub fn fingerprint(&self, this: This<Object>) -> napi::Result<Value> {
        Ok(fingerprint_json(&self.whole(&this)?.fingerprint()))
    }

    /// Every field as a plain object (what `JSON.stringify` writes): the Rust result's
    /// JSON, with `fingerprint.modified_ns` a string.
    #[napi(
        js_name = "toJSON",
        ts_args_type = "",
        ts_return_type = "ReadResultJson"
    )]
    pub fn to_json(&self, this: This<Object>) -> napi::Result<Value> {
        let mut v = json(&self.whole(&this)?);
        if let Some(ns) = self.inner.modified_ns() {
            v["fingerprint"]["modified_ns"] = Value::String(ns.to_string());
        }
        v["encoding_confidence"] = Value::from(confidence(self.inner.encoding_confidence));
        Ok(v)
    }

    /// The result rendered for a model: `plain` (the content alone), `colon`, `cat-n`,
    /// `codex`, `markdown`, `frontmatter` or `json`; `cutMarker` is what follows a cut
    /// line (`{more}`, `{next}`, `{line}`), by default `… [line truncated: {more} more bytes]`.
    #[napi(ts_args_type = "format?: Format, cutMarker?: string")]
    pub fn render(
        &self,
        env: Env,
        this: This<Object>,
        format: Option<String>,
        cut_marker: Option<String>,
    ) -> napi::Result<String> {
        render_text(
            &self.whole(&this)?,
            format.as_deref().unwrap_or("plain"),
            cut_marker.as_deref(),
        )
        .map_err(|e| crate::js_error(&env, e))
    }
}

/// `r` rendered in the format named `format`, a cut line marked with `cut_marker`.
pub(crate) fn render_text(
    r: &RustResult,
    format: &str,
    cut_marker: Option<&str>,
) -> Result<String, BindError> {
    let options = match cut_marker {
        Some(m) => rangeread::RenderOptions::default().cut_marker(m),
        None => rangeread::RenderOptions::default(),
    };
    Ok(rangeread::render_with(r, parse_format(format)?, &options))
}
