//! Reads through a [`BufferPool`]: the same answers as without one on every backend, the
//! content written into the buffer the host gave back, and nothing of a spent buffer's old
//! bytes ever showing through. The input is real source text (tests/data/real, see its
//! SOURCES.md).

mod common;

use std::sync::Arc;

use common::Input;
use rangeread::{BufferPool, ByteSelection, LineSelection, Reader, Selection};

fn real_text() -> Vec<u8> {
    let dir = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/real/");
    let mut bytes = Vec::new();
    for name in ["bstr_utf8.rs", "encoding_rs_README.md", "shlex.py"] {
        bytes.extend(std::fs::read(format!("{dir}{name}")).unwrap());
    }
    bytes
}

fn selections(total: u64) -> Vec<Selection> {
    vec![
        LineSelection::from(..).into(),
        LineSelection::head(250).into(),
        LineSelection::tail(250).into(),
        LineSelection::from(total / 2..=total / 2 + 99).into(),
        ByteSelection::new(Some(1000), Some(70_000)).into(),
        ByteSelection::new(Some(50_001), None).into(),
    ]
}

/// A spent buffer as a host hands it back: large, full of bytes of an earlier answer.
fn spent(bytes: usize) -> Vec<u8> {
    vec![b'#'; bytes]
}

#[test]
fn pooled_reads_answer_as_unpooled_ones_on_every_backend() {
    let input = Input::new(&real_text());
    let total = input.bytes.iter().filter(|&&b| b == b'\n').count() as u64;
    for (limits, label) in [((0, 0), "limits off"), ((300, 20_000), "paged")] {
        let plain = || Reader::new().max_lines(limits.0).max_bytes(limits.1);
        let pool = Arc::new(BufferPool::new(2, 4 << 20));
        let pooled = plain().buffers(pool.clone());
        // Every backend, with default buffers and with small ones (the 1- and 3-byte
        // buffers add nothing here but time).
        let backends = || {
            input
                .backends()
                .into_iter()
                .filter(|b| b.name.contains("chunk=None") || b.name.contains("chunk=Some(7)"))
        };
        for (a, b) in backends().zip(backends()) {
            let mut unpooled_doc = plain().index_block_size(a.block).document(a.source);
            let mut pooled_doc = pooled.clone().index_block_size(b.block).document(b.source);
            for sel in selections(total) {
                let want = unpooled_doc.read(sel).unwrap();
                pool.give(spent(1 << 20));
                let got = pooled_doc.read(sel).unwrap();
                assert_eq!(got, want, "{label}, {}, {sel:?}", a.name);
                assert!(!got.content.contains('#') || want.content.contains('#'));
                pool.give(got.content);
            }
        }
    }
}

#[test]
fn the_next_read_fills_the_buffer_given_back() {
    let input = Input::new(&real_text());
    let pool = Arc::new(BufferPool::new(1, 4 << 20));
    let reader = Reader::new()
        .max_lines(0)
        .max_bytes(0)
        .buffers(pool.clone());
    let first = reader.read(&input.path, LineSelection::from(..)).unwrap();
    assert_eq!(first.content.as_bytes(), &input.bytes[..]);
    let (ptr, cap) = (first.content.as_ptr(), first.content.capacity());
    pool.give(first.content);
    assert_eq!(pool.kept(), (1, cap));
    let second = reader.read(&input.path, LineSelection::head(10)).unwrap();
    assert_eq!(
        second.content.as_ptr(),
        ptr,
        "the kept buffer was not reused"
    );
    assert_eq!(pool.kept(), (0, 0));
    let want = common::naive_lines(&input.bytes)[..10].concat();
    assert_eq!(second.content.as_bytes(), &want[..]);
}

#[test]
fn a_reader_without_a_pool_frees_what_it_is_given() {
    // `recycle` on a reader without a pool is a plain drop: nothing is kept anywhere.
    let reader = Reader::new();
    reader.recycle(spent(1 << 20));
    let input = Input::new(&real_text());
    let r = reader.read(&input.path, LineSelection::head(3)).unwrap();
    assert!(r.content.capacity() < 1 << 20);
}
