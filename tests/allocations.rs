//! What a whole small file costs in memory, counted (not timed), so that a regression shows
//! on any machine: the allocations of a whole read and the bytes they ask for. The text is
//! copied once, from the file into the content; a second copy of it (a clone, a page that
//! grows by doubling, a decode into a new buffer) would ask for its size again.

use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

use rangeread::{LineSelection, Reader};

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
    let mut bytes = Vec::with_capacity(size);
    while bytes.len() + line.len() <= size {
        bytes.extend_from_slice(line);
    }
    bytes.resize(size - 1, b' ');
    bytes.push(b'\n');
    bytes
}

#[test]
fn a_whole_small_file_is_copied_once_in_a_bounded_number_of_allocations() {
    let dir = tempfile::tempdir().unwrap();
    let reader = Reader::new().max_lines(0).max_bytes(0);
    for size in [4 << 10, 64 << 10, 1 << 20] {
        let path = dir.path().join(format!("whole-{size}.txt"));
        std::fs::write(&path, text(size)).unwrap();
        // The first read fills what the reader keeps (its index cache).
        reader.read(&path, LineSelection::from(..)).unwrap();
        let (r, allocations, bytes) =
            counted(|| reader.read(&path, LineSelection::from(..)).unwrap());
        assert_eq!(r.content.len(), size);
        println!("{size} bytes: {allocations} allocations, {bytes} bytes asked for");
        // The content once, and small things: paths, the encoding's name, the hash's hex,
        // the classification's sample of at most 8 KiB (12 allocations and the size plus
        // 4.4 KiB (4 KiB file) to 8.5 KiB (64 KiB and 1 MiB) when this was written; 13
        // before the reopen's `/proc/self/fd/N` name was made on the stack).
        assert!(
            bytes <= size as u64 + (9 << 10),
            "{size} bytes read whole asked for {bytes} bytes: the text is copied more than once"
        );
        assert!(
            allocations <= 12,
            "{size} bytes read whole took {allocations} allocations"
        );
    }
}
