//! Invariants: reading any bytes as a PDF never lets a panic out (the parsers' panics are
//! caught and become errors), stays within its bounds (64 MiB decompressed, 2 s), and a
//! successful read returns pages within 1..=page_count, in order, each once.
#![no_main]

use std::sync::Once;
use std::time::{Duration, Instant};

use libfuzzer_sys::fuzz_target;
use rangeread::pdf::{self, PageSelection, PdfOptions};
use rangeread::Source;

fuzz_target!(|data: &[u8]| {
    // Panics caught inside the reader are its business; the default hook would print
    // each one. A panic that escapes still fails the target (libfuzzer-sys aborts).
    static QUIET: Once = Once::new();
    QUIET.call_once(|| std::panic::set_hook(Box::new(|_| {})));
    let mut options = PdfOptions::default();
    options.max_decompressed_bytes = 64 << 20;
    options.timeout = Duration::from_secs(2);
    let src = Source::from_bytes(data.to_vec(), "fuzz.pdf");
    for selection in [PageSelection::All, PageSelection::Range { start: 2, end: Some(3) }] {
        let t = Instant::now();
        if let Ok(r) = pdf::read(&src, selection, &options) {
            let mut last = 0;
            for p in &r.pages {
                assert!(p.page > last && p.page <= r.page_count, "page {} of {}", p.page, r.page_count);
                assert!(p.text_bytes as usize >= p.text.len());
                last = p.page;
            }
        }
        assert!(t.elapsed() < Duration::from_secs(10), "{:?}", t.elapsed());
    }
});
