//! The Rust side of the bindings' per-call overhead: the time of one read through the
//! shared core, as the bindings make it (a kept reader with its cache).
//!
//! usage: `cargo run --profile bindings -p rangeread-bindings --example percall -- FILE SPEC N`
//! prints `ns_per_call` of N reads of lines SPEC of FILE (options parsed, read, content taken).

use rangeread_bindings::{options, read, Place};
use serde_json::json;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let [file, spec, n] = args.as_slice() else {
        eprintln!("usage: percall FILE SPEC N");
        std::process::exit(2);
    };
    let n: u32 = n.parse().expect("N: a count");
    let reader = options::reader(json!({})).expect("a reader");
    let mut bytes = 0usize;
    let started = std::time::Instant::now();
    for _ in 0..n {
        let request = options::request(json!({ "lines": spec })).expect("a selection");
        let out = read(&reader, Place::Path, file, &request).expect("a read");
        // What a binding hands over when the caller takes `content`.
        bytes += out.raw_bytes().map_or(0, <[u8]>::len);
    }
    let ns = started.elapsed().as_nanos() / u128::from(n.max(1));
    println!("{{\"ns_per_call\": {ns}, \"bytes\": {bytes}}}");
}
