//! Invariant: landmarks and the searched-lines note of a partial read are the same with
//! and without a cache, also after the file grew by appending (cached landmark blocks
//! that saw the old end must be redone), and every landmark lies in an omitted region.
//! Under the fuzzer, landmark blocks are 16 bytes, so every input spans many of them.
#![no_main]

use std::sync::Arc;

use libfuzzer_sys::fuzz_target;
use rangeread::{Detection, IndexCache, LineSelection, Reader};

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let (knobs, rest) = data.split_at(4);
    let split = usize::from(knobs[0]) * rest.len() / 256;
    let (first, appended) = rest.split_at(split);
    let window = u64::from(knobs[1] % 64) + 1;
    let ext = ["rs", "md", "py", "txt"][usize::from(knobs[2] % 4)];
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join(format!("f.{ext}"));
    std::fs::write(&path, first).unwrap();
    let cache = Arc::new(IndexCache::new(1 << 20));
    let base = Reader::new()
        .detection(Detection::AssumeUtf8)
        .landmark_window(window)
        .max_landmarks(u64::from(knobs[3] % 8));
    let cached = base.clone().cache(cache);
    let pick = |n: u64, k: u8| -> LineSelection {
        let a = 1 + u64::from(k) % n.max(1);
        LineSelection::from(a..=a + u64::from(k % 3))
    };
    let total = first.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    let _ = cached.read(&path, pick(total, knobs[1]));
    let mut f = std::fs::OpenOptions::new().append(true).open(&path).unwrap();
    std::io::Write::write_all(&mut f, appended).unwrap();
    drop(f);
    let total = rest.iter().filter(|&&b| b == b'\n').count() as u64 + 1;
    for k in [knobs[2], knobs[3], knobs[0]] {
        let sel = pick(total, k);
        let (a, b) = (cached.read(&path, sel), base.read(&path, sel));
        match (a, b) {
            (Ok(a), Ok(b)) => {
                assert_eq!(a.omitted, b.omitted, "{sel:?}");
                if let (Some(o), Some(l)) = (&a.omitted, a.lines) {
                    for m in &o.landmarks {
                        assert!(m.line < l.start || m.line > l.end, "{m:?} inside {l:?}");
                    }
                }
            }
            (a, b) => assert_eq!(a.is_ok(), b.is_ok(), "{sel:?}"),
        }
    }
});
