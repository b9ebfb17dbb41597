//! `Reader.prototype.read`, the call a host makes most, without napi-rs's method glue.
//!
//! A napi-rs method checks its receiver's type tag, unwraps it and registers the borrow
//! in a process-wide map on every call: for a whole 4 KiB file that was a tenth of the
//! call. Here the reader is unwrapped by napi-rs once, the first time a `Reader` reads:
//! its `Arc` goes into a napi external, kept in a `WeakMap` that only this module's
//! JavaScript (`READ_METHOD`) sees, and each `read` hands that external to a plain
//! native function, `readWith`, which takes the reader out of it with one Node-API
//! call. The arguments are converted, the read runs and its answer is made as the
//! napi-rs method does (`ReadTask::run`, `given_js`): the same values, the same errors.
//!
//! The common result (UTF-8 text under the path as given, nothing cut or left out, the
//! file's own bytes) is made in JavaScript, by the method: `readWith` returns its text
//! and writes its numbers into `nums`, a `Float64Array` the two share, and the method
//! calls `ReadResult`'s constructor with them, as compiled code calls a constructor. Any
//! other result is made by `result::object` as every other read's is.

use std::ffi::c_void;
use std::ptr;
use std::sync::Arc;

use napi::bindgen_prelude::{FromNapiValue, JsObjectValue, Object, Unknown};
use napi::{sys, Env, JsValue, Status};
use rangeread_bindings::rangeread::Reader as RustReader;
use serde_json::Value;

use crate::{given_js, result, text_call, Give, Given, ReadTask};

/// Replaces `Reader.prototype.read` with a JavaScript method over `readWith`. The
/// reader's handle comes from its napi-rs method `_handle`, taken off the prototype so
/// that nothing else can call it.
const READ_METHOD: &str = r#"(function (Reader, readWith, ReadResult, token, nums) {
'use strict'
const proto = Reader.prototype
const handleOf = proto._handle
delete proto._handle
const handles = new WeakMap()
const endings = ENDINGS
const v = (x) => (x === x ? x : null)
const { read } = {
  read(path, selection) {
    let handle = handles.get(this)
    if (handle === undefined) {
      handle = handleOf.call(this)
      handles.set(this, handle)
    }
    const r = readWith(handle, path, selection)
    if (typeof r !== 'string') return r
    // The common result: its text, and its numbers in nums (result.rs, common).
    const n = nums
    return new ReadResult(token, r, path, path, n[0], v(n[1]), 'utf-8', n[2] !== 0, n[3],
      endings[n[4]], v(n[5]), v(n[6]), n[7], n[8], v(n[9]), v(n[10]), null, n[11], null,
      n[12] !== 0, n[13], v(n[14]), v(n[15]), null, null)
  },
}
Object.defineProperty(proto, 'read', { value: read, writable: true, configurable: true })
})"#;

/// `status` as a result; the failure says what could not be done.
fn ok(status: sys::napi_status, what: &str) -> napi::Result<()> {
    if status == sys::Status::napi_ok {
        Ok(())
    } else {
        Err(napi::Error::new(
            Status::GenericFailure,
            format!("Reader.read: {what} failed (napi status {status})"),
        ))
    }
}

/// Frees a handle's reference to its reader when the handle is collected.
unsafe extern "C" fn drop_handle(_env: sys::napi_env, data: *mut c_void, _hint: *mut c_void) {
    // SAFETY: `data` is the `Arc::into_raw` that `handle` made, released once, here.
    drop(unsafe { Arc::from_raw(data.cast_const().cast::<RustReader>()) });
}

/// A napi external holding a reference to `reader`.
pub(crate) fn handle(env: &Env, reader: &Arc<RustReader>) -> napi::Result<sys::napi_value> {
    let data = Arc::into_raw(Arc::clone(reader))
        .cast_mut()
        .cast::<c_void>();
    let mut value = ptr::null_mut();
    // SAFETY: `data` is valid until `drop_handle` runs, which the external's collection
    // calls once.
    let status = unsafe {
        sys::napi_create_external(
            env.raw(),
            data,
            Some(drop_handle),
            ptr::null_mut(),
            &mut value,
        )
    };
    if status != sys::Status::napi_ok {
        // SAFETY: the external was not made: nothing else holds `data`.
        drop(unsafe { Arc::from_raw(data.cast_const().cast::<RustReader>()) });
    }
    ok(status, "making the reader's handle")?;
    Ok(value)
}

/// The path argument: a string of under 1 KiB of UTF-8 is copied out in one Node-API
/// call (napi-rs's `String` asks for the length first); anything else converts as
/// napi-rs's `String` does, with its errors.
///
/// # Safety
///
/// `value` is a value of `env`, in a call on `env`'s thread.
unsafe fn path_arg(env: sys::napi_env, value: sys::napi_value) -> napi::Result<String> {
    let mut buf = [0u8; 1024];
    let mut len = 0;
    // SAFETY: `buf` has room for its length in bytes, the terminating NUL included.
    let status = unsafe {
        sys::napi_get_value_string_utf8(env, value, buf.as_mut_ptr().cast(), buf.len(), &mut len)
    };
    // A longer string is cut at a character's end, within 4 bytes of the buffer's room
    // (1,023 bytes and the NUL): anything shorter is whole.
    if status == sys::Status::napi_ok && len + 4 < buf.len() {
        // Node-API writes UTF-8 (a lone surrogate as U+FFFD).
        if let Ok(text) = std::str::from_utf8(&buf[..len]) {
            return Ok(text.to_owned());
        }
    }
    // SAFETY: as above.
    unsafe { String::from_napi_value(env, value) }
}

/// `readWith(handle, path, selection)`: `Reader.read`'s body.
unsafe extern "C" fn read_with(
    env: sys::napi_env,
    info: sys::napi_callback_info,
) -> sys::napi_value {
    let mut argc = 3;
    let mut argv = [ptr::null_mut(); 3];
    let mut nums: *mut c_void = ptr::null_mut();
    // SAFETY: `info` is this call's; `argv` has room for `argc` values (the ones not
    // passed are `undefined`).
    let mut read = || unsafe {
        ok(
            sys::napi_get_cb_info(
                env,
                info,
                &mut argc,
                argv.as_mut_ptr(),
                ptr::null_mut(),
                &mut nums,
            ),
            "reading the arguments",
        )?;
        let mut data = ptr::null_mut();
        ok(
            sys::napi_get_value_external(env, argv[0], &mut data),
            "reading the handle",
        )?;
        // The handle keeps its reference; this call takes one of its own.
        let data = data.cast_const().cast::<RustReader>();
        Arc::increment_strong_count(data);
        let reader = Arc::from_raw(data);
        let path = path_arg(env, argv[1])?;
        let selection = Option::<Value>::from_napi_value(env, argv[2])?;
        let task = ReadTask::new(
            &reader,
            None,
            path,
            text_call(&reader, selection),
            Give::Json,
        );
        let given = task.run();
        let env = Env::from_raw(env);
        match given {
            Ok(Given::Text(mut r, reader)) => {
                // SAFETY: `nums` is the memory of the array `install` shared with the
                // method, `NUMS` numbers, which this thread's JavaScript reads only
                // after this call returns.
                let nums = &mut *nums.cast::<[f64; result::NUMS]>();
                match result::common(&env, &mut r, task.path(), nums, &reader)? {
                    Some(text) => Ok(text),
                    None => result::object(&env, *r, &reader).map(|v| v.raw()),
                }
            }
            other => given_js(&env, other).map(|v| v.raw()),
        }
    };
    read().unwrap_or_else(|e| {
        // SAFETY: `env` is this call's environment.
        unsafe { napi::JsError::from(e).throw_into(env) };
        ptr::null_mut()
    })
}

/// Installs the method on `exports.Reader`'s prototype.
pub(crate) fn install(env: &Env, exports: &Object<'_>) -> napi::Result<()> {
    let raw = env.raw();
    let reader: Unknown<'_> = exports.get_named_property("Reader")?;
    let (class, token) = result::class_and_token(env)?;
    // The line endings' names from the list `result::common` indexes.
    let endings = serde_json::to_string(&result::ENDINGS)
        .map_err(|e| napi::Error::new(Status::GenericFailure, format!("Reader.read: {e}")))?;
    let source = env.create_string(READ_METHOD.replacen("ENDINGS", &endings, 1))?;
    let (mut factory, mut native, mut global, mut done) = (
        ptr::null_mut(),
        ptr::null_mut(),
        ptr::null_mut(),
        ptr::null_mut(),
    );
    let (mut buffer, mut data, mut nums) = (ptr::null_mut(), ptr::null_mut(), ptr::null_mut());
    let name = "readWith";
    // SAFETY: every value is of `raw`; the script is this binding's own and evaluates
    // to the function called here. The array's memory lives as long as the array, which
    // the method (and so `readWith`, whose data it is) keeps.
    unsafe {
        ok(
            sys::napi_run_script(raw, source.raw(), &mut factory),
            "compiling",
        )?;
        ok(
            sys::napi_create_arraybuffer(raw, result::NUMS * 8, &mut data, &mut buffer),
            "making the numbers' memory",
        )?;
        ok(
            sys::napi_create_typedarray(
                raw,
                sys::TypedarrayType::float64_array,
                result::NUMS,
                buffer,
                0,
                &mut nums,
            ),
            "making the numbers' array",
        )?;
        ok(
            sys::napi_create_function(
                raw,
                name.as_ptr().cast(),
                name.len() as isize,
                Some(read_with),
                data,
                &mut native,
            ),
            "making readWith",
        )?;
        ok(sys::napi_get_global(raw, &mut global), "getting the global")?;
        let args = [reader.raw(), native, class, token, nums];
        ok(
            sys::napi_call_function(raw, global, factory, args.len(), args.as_ptr(), &mut done),
            "installing",
        )?;
    }
    Ok(())
}
