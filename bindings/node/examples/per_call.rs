//! The Rust side of the Node binding's per-call overhead (benches/node/run.mjs): the
//! mean time of one `Reader::read` of a small selection with a warm reader, and of the
//! same read as the binding runs it (`rangeread_bindings::read`, then the result's JSON).
//!
//! usage: cargo run --profile bindings -p rangeread-node --example per_call -- PATH [CALLS]
//! Prints one JSON object: {"calls", "reader_read_us", "bindings_read_json_us"}.

use std::hint::black_box;
use std::time::Instant;

use rangeread_bindings::rangeread::LineSelection;
use rangeread_bindings::{options, read, Place};
use serde_json::json;

fn main() {
    let mut args = std::env::args().skip(1);
    let path = args.next().expect("usage: per_call PATH [CALLS]");
    let calls: u32 = args.next().map_or(20_000, |n| n.parse().expect("CALLS"));
    let reader = options::reader(serde_json::Value::Null).expect("a reader");
    let selection: LineSelection = "2:+1".parse().expect("a selection");
    let request = options::request(json!({"lines": "2:+1"})).expect("a request");
    let time = |f: &dyn Fn()| {
        for _ in 0..calls / 10 {
            f();
        }
        let t = Instant::now();
        for _ in 0..calls {
            f();
        }
        t.elapsed().as_secs_f64() * 1e6 / f64::from(calls)
    };
    let plain = time(&|| {
        black_box(reader.read(&path, selection).expect("read"));
    });
    let bound = time(&|| {
        let out = read(&reader, Place::Path, &path, &request).expect("read");
        black_box(out.to_json());
    });
    println!(
        "{}",
        json!({"calls": calls, "reader_read_us": plain, "bindings_read_json_us": bound})
    );
}
