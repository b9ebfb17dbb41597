//! What a whole small read costs the bindings' shared core in memory, counted (not timed):
//! a call as Python and Node make it (the call's options turned into a reader and a
//! selection, then the read) asks for no more than the library's own read. The text is
//! copied once, as in the library (tests/allocations.rs there); a second copy in the
//! binding layer (a clone of the result, JSON of it) asks for the file's size again and
//! fails here.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use rangeread_bindings::rangeread::LineSelection;
use rangeread_bindings::{options, read, Output, Place};
use serde_json::json;

/// The system allocator, counting on threads that asked for it.
struct Counting;

thread_local! {
    static COUNTING: Cell<bool> = const { Cell::new(false) };
    static ALLOCATIONS: Cell<u64> = const { Cell::new(0) };
    static BYTES: Cell<u64> = const { Cell::new(0) };
}

fn note(bytes: usize) {
    // `try_with`: the allocator also runs while thread-locals are torn down.
    let _ = COUNTING.try_with(|on| {
        if on.get() {
            let _ = ALLOCATIONS.try_with(|n| n.set(n.get() + 1));
            let _ = BYTES.try_with(|b| b.set(b.get() + bytes as u64));
        }
    });
}

// SAFETY: every call is passed on to `System` unchanged.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        System.alloc(layout)
    }

    unsafe fn alloc_zeroed(&self, layout: Layout) -> *mut u8 {
        note(layout.size());
        System.alloc_zeroed(layout)
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // A reallocation that grows asks for the new size: a copy, in the worst case.
        note(new_size);
        System.realloc(ptr, layout, new_size)
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        System.dealloc(ptr, layout)
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// (allocations, bytes asked for) during `f`, on this thread.
fn counted<T>(f: impl FnOnce() -> T) -> (T, u64, u64) {
    let (n0, b0) = (ALLOCATIONS.with(Cell::get), BYTES.with(Cell::get));
    COUNTING.with(|c| c.set(true));
    let out = f();
    COUNTING.with(|c| c.set(false));
    let (n1, b1) = (ALLOCATIONS.with(Cell::get), BYTES.with(Cell::get));
    (out, n1 - n0, b1 - b0)
}

/// Source-like text of `size` bytes (whole lines of ASCII).
fn text(size: usize) -> Vec<u8> {
    let line = b"    let value = compute(input, &options).unwrap_or_default(); // why\n";
    let mut bytes = line.repeat(size / line.len());
    bytes.resize(size - 1, b' ');
    bytes.push(b'\n');
    bytes
}

#[test]
fn a_whole_read_through_the_bindings_core_allocates_no_more_than_the_library() {
    let dir = tempfile::tempdir().unwrap();
    // A reader as `Reader({maxLines: 0, maxBytes: 0})` / `Reader(max_lines=0, max_bytes=0)`
    // makes it, and a call with no selection (`reader.read(p)`), as each binding passes it.
    let reader = options::reader(json!({"max_lines": 0, "max_bytes": 0})).unwrap();
    for size in [4 << 10, 64 << 10, 1 << 20] {
        let path = dir.path().join(format!("whole-{size}.txt"));
        std::fs::write(&path, text(size)).unwrap();
        // The first read fills what the reader keeps (its index cache).
        reader.read(&path, LineSelection::from(..)).unwrap();
        let (lib, lib_n, lib_bytes) =
            counted(|| reader.read(&path, LineSelection::from(..)).unwrap());
        assert_eq!(lib.content.len(), size);
        let (out, n, bytes) = counted(|| {
            let (call_reader, request) = options::text_call(&reader, json!(null)).unwrap();
            read(&call_reader, Place::Path, &path, &request).unwrap()
        });
        let Output::Text(r) = out else {
            panic!("a text read gave another kind of output")
        };
        assert_eq!(r.content.len(), size);
        println!(
            "{size} bytes: the library {lib_n} allocations, {lib_bytes} bytes; \
             the bindings' core {n} allocations, {bytes} bytes"
        );
        // No options: the call's reader is the kept one (a clone shares its cache) and
        // the selection the whole file, made without an allocation. The same allocations
        // as the library's read, byte for byte, when this was written (12 and the size
        // plus 4.4 KiB for 4 KiB; 11 and the size plus 0.4 KiB for 64 KiB and 1 MiB, whose
        // classification the reader's cache keeps; 15 and 14 while a read the cache knew
        // stored its index again).
        assert!(
            n <= lib_n,
            "{size} bytes through the bindings' core: {n} allocations, the library {lib_n}"
        );
        assert!(
            bytes <= lib_bytes,
            "{size} bytes through the bindings' core asked for {bytes} bytes, the library \
             {lib_bytes}: the binding layer copies or builds something the library does not"
        );
    }
}
