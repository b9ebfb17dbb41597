//! A text read's result as a JavaScript object. A whole small file is the call a host
//! makes most, so the object is made the way JavaScript makes its own: one call of a
//! JavaScript class's constructor (`RESULT_CLASS`, compiled once per environment) with
//! the result's values as its arguments, kept in private fields behind getters. No
//! native object is wrapped, so there is no finalizer to run, no reference to track, no
//! JSON text to parse. The text becomes a string once, straight from the Rust string,
//! whose buffer goes back to the reader for its next read; the nested fields (`lines`,
//! `requested` ...) are made when read; the fingerprint's hash only when asked for.
//! A result whose text is not its file's exact bytes (invalid UTF-8 replaced) also keeps
//! the Rust result, for its fingerprint and `render`.

use std::cell::RefCell;

use napi::bindgen_prelude::{External, JsObjectValue, Object, ToNapiValue, Unknown};
use napi::{sys, Env, JsValue};
use napi_derive::napi;
use rangeread_bindings::rangeread::ReadResult as RustResult;
use rangeread_bindings::{parse_format, rangeread, BindError};
use serde::Serialize;

/// The class of a text read's result. Its constructor takes a token only this binding
/// has, so a host cannot make a result that no read returned; the getters give the Rust
/// result's JSON fields, each in its JSON's name; `toJSON()` all of them as a plain
/// object; `render(format, cutMarker)` words it for a model. `contentHash` and `render`
/// are the binding's native functions.
const RESULT_CLASS: &str = r#"(function (contentHash, render) {
'use strict'
const token = Object.freeze({})
const copy = (v) => (v === null || typeof v !== 'object' ? v : structuredClone(v))
class ReadResult {
  #content; #path; #resolved; #size; #total; #encoding; #bom; #confidence; #ending
  #lineStart; #lineEnd; #byteStart; #byteEnd; #askedStart; #askedEnd; #askedBytes; #adjusted
  #more; #partial; #percent; #seconds; #nanos; #hash; #exact
  constructor(t, content, path, resolved, size, total, encoding, bom, confidence, ending,
    lineStart, lineEnd, byteStart, byteEnd, askedStart, askedEnd, askedBytes, adjusted,
    more, partial, percent, seconds, nanos, hash, exact) {
    if (t !== token) throw new TypeError('a ReadResult is what a read returns: use Reader.read()')
    this.#content = content; this.#path = path; this.#resolved = resolved; this.#size = size
    this.#total = total; this.#encoding = encoding; this.#bom = bom; this.#confidence = confidence
    this.#ending = ending; this.#lineStart = lineStart; this.#lineEnd = lineEnd
    this.#byteStart = byteStart; this.#byteEnd = byteEnd; this.#askedStart = askedStart
    this.#askedEnd = askedEnd; this.#askedBytes = askedBytes; this.#adjusted = adjusted
    this.#more = more; this.#partial = partial; this.#percent = percent
    this.#seconds = seconds; this.#nanos = nanos; this.#hash = hash; this.#exact = exact
  }
  get path() { return this.#path }
  get resolved_path() { return this.#resolved }
  get content() { return this.#content }
  get file_size() { return this.#size }
  get total_lines() { return this.#total }
  get encoding() { return this.#encoding }
  get bom() { return this.#bom }
  get encoding_confidence() { return this.#confidence }
  get line_ending() { return this.#ending }
  get lines() { return this.#lineStart === null ? null : { start: this.#lineStart, end: this.#lineEnd } }
  get bytes() { return { start: this.#byteStart, end: this.#byteEnd } }
  get requested() {
    const r = {}
    if (this.#askedStart !== null) r.lines = { start: this.#askedStart, end: this.#askedEnd }
    if (this.#askedBytes !== null) r.bytes = { start: this.#askedBytes[0], end: this.#askedBytes[1] }
    return r
  }
  get adjustments() {
    const a = this.#adjusted
    return { start_adjusted: (a & 1) !== 0, end_adjusted: (a & 2) !== 0, end_clamped: (a & 4) !== 0 }
  }
  get truncated() { return this.#more === null ? null : copy(this.#more.truncated) }
  get cut_lines() { return this.#more === null ? [] : copy(this.#more.cut_lines) }
  get omitted() { return this.#more === null ? null : copy(this.#more.omitted) }
  get is_partial() { return this.#partial }
  get percent_of_file() { return this.#percent }
  get invalid_utf8() { return this.#more === null ? null : copy(this.#more.invalid_utf8) }
  get fingerprint() {
    if (this.#hash === null) this.#hash = contentHash(this.#content)
    return {
      file_size: this.#size,
      modified_ns: this.#seconds === null ? null
        : this.#seconds === 0 ? String(this.#nanos)
        : String(this.#seconds) + String(this.#nanos).padStart(9, '0'),
      content_hash: this.#hash,
    }
  }
  toJSON() {
    return {
      path: this.#path, resolved_path: this.#resolved, content: this.#content,
      file_size: this.#size, total_lines: this.#total, encoding: this.#encoding, bom: this.#bom,
      encoding_confidence: this.#confidence, line_ending: this.#ending, lines: this.lines,
      bytes: this.bytes, requested: this.requested, adjustments: this.adjustments,
      truncated: this.truncated, cut_lines: this.cut_lines, omitted: this.omitted,
      is_partial: this.#partial, percent_of_file: this.#percent, invalid_utf8: this.invalid_utf8,
      fingerprint: this.fingerprint,
    }
  }
  render(format, cutMarker) { return render(this.#exact ?? this.toJSON(), format, cutMarker) }
}
return [ReadResult, token]
})"#;

/// The class and its token in one environment (one per thread that runs JavaScript:
/// the main thread and each worker).
struct Made {
    env: sys::napi_env,
    class: sys::napi_ref,
    token: sys::napi_ref,
}

thread_local! {
    static MADE: RefCell<Option<Made>> = const { RefCell::new(None) };
}

/// `status` as a result; the failure says what could not be done.
fn ok(status: sys::napi_status, what: &str) -> napi::Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(napi::Error::new(
            napi::Status::GenericFailure,
            format!("the ReadResult class: {what} failed (napi status {status})"),
        ))
    }
}

/// The class and the token of `env`, compiled the first time a thread's environment
/// asks (an environment made later on the same thread compiles its own).
pub(crate) fn class_and_token(env: &Env) -> napi::Result<(sys::napi_value, sys::napi_value)> {
    let raw = env.raw();
    let known = MADE.with(|m| {
        m.borrow()
            .as_ref()
            .filter(|m| m.env == raw)
            .map(|m| (m.class, m.token))
    });
    let (class, token) = match known {
        Some(refs) => refs,
        None => {
            let made = compile(env)?;
            let refs = (made.class, made.token);
            MADE.with(|m| *m.borrow_mut() = Some(made));
            refs
        }
    };
    let (mut c, mut t) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: both references were made in `raw`, which is the current environment.
    unsafe {
        ok(sys::napi_get_reference_value(raw, class, &mut c), "get")?;
        ok(sys::napi_get_reference_value(raw, token, &mut t), "get")?;
    }
    Ok((c, t))
}

/// Runs `RESULT_CLASS` in `env` and calls it with the native functions it uses.
fn compile(env: &Env) -> napi::Result<Made> {
    let raw = env.raw();
    let source = env.create_string(RESULT_CLASS)?;
    let mut factory = std::ptr::null_mut();
    // SAFETY: `source` is a string of `raw`; the script is this binding's own.
    ok(
        unsafe { sys::napi_run_script(raw, source.raw(), &mut factory) },
        "compiling",
    )?;
    let hash = env.create_function_from_closure::<String, _, _>("contentHash", |ctx| {
        let text: String = ctx.get(0)?;
        Ok(rangeread::content_hash(text.as_bytes()))
    })?;
    let render = env.create_function_from_closure::<Unknown<'_>, _, _>("render", |ctx| {
        let result: Unknown<'_> = ctx.get(0)?;
        let format: Option<String> = ctx.get(1)?;
        let marker: Option<String> = ctx.get(2)?;
        crate::render(*ctx.env, result, format, marker)
    })?;
    let mut global = std::ptr::null_mut();
    let mut pair = std::ptr::null_mut();
    let args = [hash.raw(), render.raw()];
    // SAFETY: every value is of `raw`; `factory` is the function the script evaluates to.
    unsafe {
        ok(sys::napi_get_global(raw, &mut global), "getting the global")?;
        ok(
            sys::napi_call_function(raw, global, factory, 2, args.as_ptr(), &mut pair),
            "making",
        )?;
    }
    let (mut class, mut token) = (std::ptr::null_mut(), std::ptr::null_mut());
    let (mut class_ref, mut token_ref) = (std::ptr::null_mut(), std::ptr::null_mut());
    // SAFETY: `pair` is the two-element array the factory returns.
    unsafe {
        ok(sys::napi_get_element(raw, pair, 0, &mut class), "reading")?;
        ok(sys::napi_get_element(raw, pair, 1, &mut token), "reading")?;
        ok(
            sys::napi_create_reference(raw, class, 1, &mut class_ref),
            "keeping",
        )?;
        ok(
            sys::napi_create_reference(raw, token, 1, &mut token_ref),
            "keeping",
        )?;
    }
    Ok(Made {
        env: raw,
        class: class_ref,
        token: token_ref,
    })
}

/// The class, for the module's exports (`ReadResult`).
pub(crate) fn class(env: &Env) -> napi::Result<Unknown<'_>> {
    let (c, _) = class_and_token(env)?;
    // SAFETY: `c` is a value of `env`.
    Ok(unsafe { Unknown::from_raw_unchecked(env.raw(), c) })
}

/// Whether `value` is a `ReadResult` of this binding.
pub(crate) fn is_result(env: &Env, value: &Unknown<'_>) -> napi::Result<bool> {
    let (c, _) = class_and_token(env)?;
    let mut yes = false;
    // SAFETY: both are values of `env`.
    ok(
        unsafe { sys::napi_instanceof(env.raw(), value.raw(), c, &mut yes) },
        "instanceof",
    )?;
    Ok(yes)
}

/// The exact Rust result a `ReadResult` keeps when its text is not its file's bytes.
pub(crate) type Exact = External<RustResult>;

/// The result's fields past the common case (a cut, a cut line, what was left out,
/// invalid UTF-8), made into one object when one of them is set.
#[derive(Serialize)]
struct More<'a> {
    truncated: &'a Option<rangeread::Truncation>,
    cut_lines: &'a [rangeread::CutLine],
    omitted: &'a Option<rangeread::Omitted>,
    invalid_utf8: &'a Option<rangeread::InvalidUtf8>,
}

/// The confidence as the JSON text writes it (`0.99`, not the f32's `0.9900000095...`).
fn confidence(c: f32) -> f64 {
    // A whole number (1 for UTF-8, 0) is exact either way: no decimal text to make.
    if c.fract() == 0.0 {
        return f64::from(c);
    }
    c.to_string().parse().unwrap_or(f64::from(c))
}

/// How many numbers [`common`] writes.
pub(crate) const NUMS: usize = 16;

/// The line endings' names as results give them, in the order of the index [`common`]
/// writes (`fast.rs`'s method takes its list from here).
pub(crate) const ENDINGS: [&str; 4] = ["lf", "crlf", "mixed", "none"];

/// What [`common`] and [`object`] derive from a result alike: its line ending as an
/// index into [`ENDINGS`], its adjustments as bits (start adjusted 1, end adjusted 2, end
/// clamped 4, as the class's getter reads them), and its modification time as whole
/// seconds and the nanoseconds past them (nanoseconds since 1970 are past 2^53: two
/// exact numbers, which the getter joins into decimal digits when asked).
struct Derived {
    ending: usize,
    adjusted: u8,
    modified: Option<(u64, u64)>,
}

fn derived(inner: &RustResult) -> Derived {
    let a = inner.adjustments;
    Derived {
        ending: match inner.line_ending {
            rangeread::LineEnding::Lf => 0,
            rangeread::LineEnding::Crlf => 1,
            rangeread::LineEnding::Mixed => 2,
            rangeread::LineEnding::None => 3,
        },
        adjusted: u8::from(a.start_adjusted)
            | u8::from(a.end_adjusted) << 1
            | u8::from(a.end_clamped) << 2,
        modified: inner
            .modified_ns()
            .map(|ns| (ns / 1_000_000_000, ns % 1_000_000_000)),
    }
}

/// The common result as `fast.rs`'s method makes it: `inner`'s text as a string, its
/// numbers written into `nums` (`NaN` for `null`), its text's buffer handed back to
/// `reader`. That is a result of UTF-8 text read under `path` as given (no U+FFFD in it,
/// which a lone surrogate of the JavaScript string became), with no byte range asked,
/// nothing cut or left out, and its text the file's own bytes. `None` for any other:
/// `inner` is left whole for [`object`].
pub(crate) fn common(
    env: &Env,
    inner: &mut RustResult,
    path: &std::path::Path,
    nums: &mut [f64; NUMS],
    reader: &rangeread::Reader,
) -> napi::Result<Option<sys::napi_value>> {
    let common = inner.encoding == "utf-8"
        && inner.resolved_path == inner.path
        && path.as_os_str() == std::ffi::OsStr::new(&inner.path)
        && !inner.path.contains('\u{FFFD}')
        && inner.requested.bytes.is_none()
        && inner.truncated.is_none()
        && inner.cut_lines.is_empty()
        && inner.omitted.is_none()
        && inner.invalid_utf8.is_none();
    if !common {
        return Ok(None);
    }
    let text = std::mem::take(&mut inner.content);
    if !inner.raw_bytes().is_empty() {
        // The text is not the file's bytes (invalid UTF-8 replaced): kept whole.
        inner.content = text;
        return Ok(None);
    }
    let content = js_string(env, &text)?.raw();
    reader.recycle(text);
    let or_nan = |n: Option<u64>| n.map_or(f64::NAN, |n| n as f64);
    let signed = |n: Option<i64>| n.map_or(f64::NAN, |n| n as f64);
    let d = derived(inner);
    let (seconds, nanos) = match d.modified {
        Some((s, n)) => (s as f64, n as f64),
        None => (f64::NAN, f64::NAN),
    };
    *nums = [
        inner.file_size as f64,
        or_nan(inner.total_lines),
        f64::from(u8::from(inner.bom)),
        confidence(inner.encoding_confidence),
        d.ending as f64,
        or_nan(inner.lines.map(|l| l.start)),
        or_nan(inner.lines.map(|l| l.end)),
        inner.bytes.start as f64,
        inner.bytes.end as f64,
        signed(inner.requested.lines.map(|l| l.start)),
        signed(inner.requested.lines.and_then(|l| l.end)),
        f64::from(d.adjusted),
        f64::from(u8::from(inner.is_partial)),
        inner.percent_of_file,
        seconds,
        nanos,
    ];
    Ok(Some(content))
}

/// `inner` as a JavaScript `ReadResult`, its text's buffer handed back to `reader` for
/// its next read (or freed).
pub(crate) fn object<'e>(
    env: &'e Env,
    mut inner: RustResult,
    reader: &rangeread::Reader,
) -> napi::Result<Unknown<'e>> {
    let (class, token) = class_and_token(env)?;
    let raw = env.raw();
    // SAFETY (every `to_napi_value` below): the values are made in `raw`, the current
    // environment, and used only within this call.
    let num = |n: u64| unsafe { f64::to_napi_value(raw, n as f64) };
    let opt = |n: Option<u64>| unsafe { Option::<f64>::to_napi_value(raw, n.map(|n| n as f64)) };
    let signed = |n: Option<i64>| unsafe { Option::<f64>::to_napi_value(raw, n.map(|n| n as f64)) };
    let flag = |b: bool| unsafe { bool::to_napi_value(raw, b) };
    let null =
        || unsafe { napi::bindgen_prelude::Null::to_napi_value(raw, napi::bindgen_prelude::Null) };

    let text = std::mem::take(&mut inner.content);
    let content = js_string(env, &text)?.raw();
    // With its text taken, a result's exact bytes are empty unless it keeps the file's
    // own (invalid UTF-8 was replaced in `content`): such a result is kept whole, for
    // its fingerprint (the hash of those bytes, made now) and for `render`.
    let kept = if inner.raw_bytes().is_empty() {
        reader.recycle(text);
        None
    } else {
        inner.content = text;
        Some(inner.clone())
    };
    let path = js_string(env, &inner.path)?.raw();
    let resolved = if inner.resolved_path == inner.path {
        path
    } else {
        js_string(env, &inner.resolved_path)?.raw()
    };
    let d = derived(&inner);
    let asked = inner.requested;
    let asked_bytes = match asked.bytes {
        Some(b) => env.to_js_value(&[b.start, b.end])?.raw(),
        None => null()?,
    };
    let more = if inner.truncated.is_some()
        || !inner.cut_lines.is_empty()
        || inner.omitted.is_some()
        || inner.invalid_utf8.is_some()
    {
        env.to_js_value(&More {
            truncated: &inner.truncated,
            cut_lines: &inner.cut_lines,
            omitted: &inner.omitted,
            invalid_utf8: &inner.invalid_utf8,
        })?
        .raw()
    } else {
        null()?
    };
    let (seconds, nanos) = match d.modified {
        Some((s, n)) => (num(s)?, num(n)?),
        None => (null()?, null()?),
    };
    let (hash, exact) = match kept {
        Some(whole) => (
            js_string(env, &whole.fingerprint().content_hash)?.raw(),
            // SAFETY: as above.
            unsafe { Exact::to_napi_value(raw, External::new(whole)) }?,
        ),
        None => (null()?, null()?),
    };
    let args = [
        token,
        content,
        path,
        resolved,
        num(inner.file_size)?,
        opt(inner.total_lines)?,
        js_string(env, &inner.encoding)?.raw(),
        flag(inner.bom)?,
        unsafe { f64::to_napi_value(raw, confidence(inner.encoding_confidence)) }?,
        js_string(env, ENDINGS[d.ending])?.raw(),
        opt(inner.lines.map(|l| l.start))?,
        opt(inner.lines.map(|l| l.end))?,
        num(inner.bytes.start)?,
        num(inner.bytes.end)?,
        signed(asked.lines.map(|l| l.start))?,
        signed(asked.lines.and_then(|l| l.end))?,
        asked_bytes,
        unsafe { u32::to_napi_value(raw, u32::from(d.adjusted)) }?,
        more,
        flag(inner.is_partial)?,
        unsafe { f64::to_napi_value(raw, inner.percent_of_file) }?,
        seconds,
        nanos,
        hash,
        exact,
    ];
    let mut made = std::ptr::null_mut();
    // SAFETY: `class` is the constructor of `raw`; `args` are values of `raw`.
    ok(
        unsafe { sys::napi_new_instance(raw, class, args.len(), args.as_ptr(), &mut made) },
        "making a result",
    )?;
    // SAFETY: `made` is the object just made in `raw`.
    Ok(unsafe { Unknown::from_raw_unchecked(raw, made) })
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

/// The Rust result a `ReadResult` keeps (`render` of one whose text is not its file's
/// exact bytes), when `value` is one.
pub(crate) fn exact(env: &Env, value: &Unknown<'_>) -> Option<RustResult> {
    // SAFETY: `value` is a value of `env`.
    let e = unsafe {
        <&Exact as napi::bindgen_prelude::FromNapiValue>::from_napi_value(env.raw(), value.raw())
    };
    e.ok().map(|e| (**e).clone())
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

/// The module's `ReadResult` export, the class, made when the module loads; and
/// `Reader.read`'s JavaScript method (`fast.rs`).
#[napi(module_exports)]
pub fn exports(mut exports: Object, env: Env) -> napi::Result<()> {
    crate::fast::install(&env, &exports)?;
    let c = class(&env)?;
    exports.set_named_property("ReadResult", c)
}
