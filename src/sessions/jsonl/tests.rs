//! Unit tests of the engine on a toy line format.

use std::sync::Arc;

use super::counts::Count;
use super::decode::{Decoded, LineFormat, Meta, Piece, Prompt};
use super::paging::{read_window, Assembler};
use super::*;
use crate::cache::IndexCache;
use crate::sessions::{Message, MessageRequest, Order};
use crate::source::Source;

/// A toy format: `u:TEXT`, `a:KEY:TEXT` (merged by KEY), `A:KEY:TEXT` (opens a message,
/// later `a:` pieces of KEY join it), `b` boundary, `t:TITLE`.
struct Toy;

impl LineFormat for Toy {
    fn decode(&self, line: &[u8]) -> Decoded {
        let s = std::str::from_utf8(line).unwrap();
        let piece = |role: &str, merge: Option<&str>, text: &str| {
            Decoded::Piece(Piece {
                role: role.into(),
                content: text.into(),
                timestamp: None,
                merge: merge.map(Into::into),
                opens: s.starts_with("A:"),
                prompt: if role == "user" {
                    Prompt::Real { title_at: 0 }
                } else {
                    Prompt::No
                },
            })
        };
        if let Some(t) = s.strip_prefix("u:") {
            piece("user", None, t)
        } else if let Some(rest) = s.strip_prefix("a:").or_else(|| s.strip_prefix("A:")) {
            let (k, t) = rest.split_once(':').unwrap();
            piece("assistant", Some(k), t)
        } else if s == "b" {
            Decoded::Boundary
        } else if let Some(t) = s.strip_prefix("t:") {
            Decoded::Meta(Meta::Custom(t.into()))
        } else if s == "s" {
            Decoded::Skip
        } else {
            Decoded::Malformed
        }
    }

    fn title_markers(&self) -> Vec<&[u8]> {
        vec![b"t:"]
    }
}

/// [`Toy`], counting the lines it decodes.
#[derive(Default)]
struct Counted(std::sync::atomic::AtomicUsize);

impl Counted {
    fn decoded(&self) -> usize {
        self.0.load(std::sync::atomic::Ordering::Relaxed)
    }
}

impl LineFormat for Counted {
    fn decode(&self, line: &[u8]) -> Decoded {
        self.0.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Toy.decode(line)
    }
}

const TEXT: &str = "u:one\na:x:two\ns\na:x:three\nb\na:x:four\n??\nu:five\na:y:six\n";

fn req(order: Order, offset: usize, limit: usize) -> MessageRequest {
    MessageRequest {
        order,
        offset,
        limit,
        count: true,
        ..MessageRequest::default()
    }
}

fn contents(v: &[Message]) -> Vec<&str> {
    v.iter().map(|m| m.content.as_str()).collect()
}

#[test]
fn both_directions_agree_on_every_chunk_size() {
    for chunk in [1usize, 2, 3, 7, 64, 1 << 20] {
        let mut src = Source::from_bytes(TEXT.as_bytes().to_vec(), "toy");
        src.set_chunk_size(chunk);
        let (all, bad) = read_window(&src, &Toy, &req(Order::Oldest, 0, 100)).unwrap();
        assert_eq!(contents(&all), ["one", "two\nthree", "four", "five", "six"]);
        assert_eq!(bad, 1);
        let (rev, _) = read_window(&src, &Toy, &req(Order::Newest, 0, 100)).unwrap();
        let mut back = contents(&rev);
        back.reverse();
        assert_eq!(back, contents(&all), "chunk {chunk}");
        let (mid, _) = read_window(&src, &Toy, &req(Order::Newest, 1, 2)).unwrap();
        assert_eq!(contents(&mid), ["five", "four"]);
        let (first, _) = read_window(&src, &Toy, &req(Order::Oldest, 1, 1)).unwrap();
        assert_eq!(contents(&first), ["two\nthree"]);
    }
}

/// The naive reading: every line decoded, merged oldest first, then windowed.
fn naive(text: &str, req: &MessageRequest) -> Vec<Message> {
    let mut asm = Assembler::default();
    let mut all = Vec::new();
    for line in text.split('\n').filter(|l| !l.is_empty()) {
        match Toy.decode(line.as_bytes()) {
            Decoded::Boundary => asm.boundary = true,
            Decoded::Piece(p) => all.extend(asm.push(p)),
            _ => {}
        }
    }
    all.extend(asm.finish());
    crate::sessions::MessagePage::from_messages(all, req).messages
}

proptest::proptest! {
    #[test]
    fn windows_agree_with_the_naive_reading(
        lines in proptest::collection::vec(0u8..8, 0..40),
        chunk in 1usize..40,
        offset in 0usize..6,
        limit in 0usize..6,
        newest in proptest::bool::ANY,
        trailing_lf in proptest::bool::ANY,
    ) {
        let mut text: String = lines
            .iter()
            .enumerate()
            .map(|(i, k)| match k {
                0 => format!("u:q{i}\n"),
                1 | 2 => format!("a:x:r{i}\n"),
                3 => format!("a:y:r{i}\n"),
                7 => format!("A:x:o{i}\n"),
                4 => "b\n".to_string(),
                5 => "s\n".to_string(),
                _ => "??\n".to_string(),
            })
            .collect();
        if !trailing_lf {
            text.pop();
        }
        let mut src = Source::from_bytes(text.as_bytes().to_vec(), "toy");
        src.set_chunk_size(chunk);
        let order = if newest { Order::Newest } else { Order::Oldest };
        let r = req(order, offset, limit);
        let (got, _) = read_window(&src, &Toy, &r).unwrap();
        proptest::prop_assert_eq!(got, naive(&text, &r));
        let mut count = Count::default();
        for line in text.split('\n').filter(|l| !l.is_empty()) {
            count.take(Toy.decode(line.as_bytes()));
        }
        let all = naive(&text, &req(Order::Oldest, 0, usize::MAX));
        proptest::prop_assert_eq!(count.messages, all.len() as u64);
    }
}

#[test]
fn counts_continue_after_append() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    std::fs::write(&path, "u:one\na:x:two\n?a:x:thr").unwrap();
    let engine = Engine::new(Toy);
    let r = engine
        .read(&path, &req(Order::Newest, 0, 1), TitleScan::Full)
        .unwrap();
    // The torn last line is malformed for now; "two" stands alone.
    assert_eq!(r.message_count, Some(2));
    assert_eq!(r.malformed_lines, 1);
    std::fs::write(&path, "u:one\na:x:two\na:x:three\nt:Named\nu:four\n").unwrap();
    let r = engine
        .read(&path, &req(Order::Newest, 0, 1), TitleScan::Full)
        .unwrap();
    assert_eq!(r.message_count, Some(3));
    assert_eq!(r.malformed_lines, 0);
    assert_eq!(r.title.as_deref(), Some("Named"));
    std::fs::write(&path, "u:rewritten\n").unwrap();
    let r = engine
        .read(&path, &req(Order::Oldest, 0, 5), TitleScan::Full)
        .unwrap();
    assert_eq!(r.message_count, Some(1));
    assert_eq!(r.title.as_deref(), Some("rewritten"));
}

#[test]
fn the_shared_cache_carries_counts_across_reads_and_appends() {
    use std::io::Write;
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("t.jsonl");
    let text: String = (0..1000).map(|i| format!("u:m{i}\n")).collect();
    std::fs::write(&path, text).unwrap();
    let cache = Arc::new(IndexCache::new(1 << 20));
    let mut engine = Engine::new(Counted::default());
    engine.cache = cache.clone();
    // Limit 0: only the counting pass decodes lines.
    let count = |e: &Engine<Counted>| {
        e.read(&path, &req(Order::Newest, 0, 0), TitleScan::Full)
            .unwrap()
            .message_count
    };
    assert_eq!(count(&engine), Some(1000));
    assert_eq!(engine.fmt.decoded(), 1000);
    assert_eq!(cache.len(), 1);
    // Unchanged: answered from the cache.
    assert_eq!(count(&engine), Some(1000));
    assert_eq!(engine.fmt.decoded(), 1000);
    assert!(cache.stats().hits >= 1);
    // Appended: only the new records are decoded.
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&path)
        .unwrap();
    f.write_all(b"u:new1\nu:new2\n").unwrap();
    assert_eq!(count(&engine), Some(1002));
    assert_eq!(engine.fmt.decoded(), 1002);
    assert_eq!(cache.stats().extended, 1);
    // A second engine on the same cache keeps its own state.
    let mut other = Engine::new(Counted::default());
    other.cache = cache.clone();
    assert_eq!(count(&other), Some(1002));
    assert_eq!(other.fmt.decoded(), 1002);
    assert_eq!(cache.len(), 1);
    // Rewritten: counted again from the start.
    std::fs::write(&path, "u:a\nu:b\n").unwrap();
    assert_eq!(count(&engine), Some(2));
    assert_eq!(engine.fmt.decoded(), 1004);
    assert!(cache.stats().invalidated >= 1);
}

#[test]
fn a_piece_that_opens_starts_its_own_message_in_both_directions() {
    // Codex: every agent message is its own, the tool calls after it join it.
    let text = "u:q\nA:x:one\na:x:[tool: a]\ns\na:x:[tool: b]\nA:x:two\nA:x:three\na:x:[tool: c]\n";
    let src = Source::from_bytes(text.as_bytes().to_vec(), "toy");
    let want = ["q", "one\n[tool: a]\n[tool: b]", "two", "three\n[tool: c]"];
    let (all, _) = read_window(&src, &Toy, &req(Order::Oldest, 0, 100)).unwrap();
    assert_eq!(contents(&all), want);
    let (rev, _) = read_window(&src, &Toy, &req(Order::Newest, 0, 100)).unwrap();
    let mut back = contents(&rev);
    back.reverse();
    assert_eq!(back, want);
    let mut count = Count::default();
    for line in text.lines() {
        count.take(Toy.decode(line.as_bytes()));
    }
    assert_eq!(count.messages, 4);
}
