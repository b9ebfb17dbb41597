//! What a read of a PDF learned, kept for the next read (feature `pdf`, an
//! [`IndexCache`], `--index-dir`): a later read (a new process too) starts from the
//! cross-reference data, page objects and page texts an earlier read found, and answers
//! exactly what a read without them answers; a changed, damaged or encrypted file never
//! gets a stale or a leaked answer. Real files: R's 2,415-page reference manual and the
//! incremental, hybrid, linearized and broken-table PDFs made from R's introduction
//! (tests/documents/SOURCES.md).
#![cfg(feature = "pdf")]

mod documents;

use std::path::{Path, PathBuf};
use std::process::Command;
use std::sync::Arc;

use documents::fixture;
use rangeread::pdf::PdfRead;
use rangeread::{DocumentRead, DocumentRequest, IndexCache, Reader};

fn read(reader: &Reader, path: &Path, pages: &str) -> PdfRead {
    let req = DocumentRequest::new().pages(pages.parse().unwrap());
    match reader.read_document(path, &req).unwrap() {
        DocumentRead::Pdf(p) => p,
        other => panic!("{} read as {other:?}", path.display()),
    }
}

/// A reader as a new process makes it: a fresh cache over the index directory `dir`.
fn process(dir: &Path) -> (Reader, Arc<IndexCache>) {
    let cache = Arc::new(IndexCache::new(64 << 20).with_dir(dir, 256 << 20).unwrap());
    (Reader::new().cache(cache.clone()), cache)
}

/// The entries the directory holds for documents.
fn entries(dir: &Path) -> Vec<PathBuf> {
    let mut v: Vec<PathBuf> = std::fs::read_dir(dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .filter(|p| p.to_string_lossy().ends_with(".pdf.rrindex"))
        .collect();
    v.sort();
    v
}

/// `name` copied into `dir` (the fixtures are links into the fixture directory).
fn copy(name: &str, dir: &Path) -> Option<PathBuf> {
    let from = fixture(name)?;
    let to = dir.join(name);
    std::fs::copy(&from, &to).unwrap();
    Some(to)
}

#[test]
fn a_second_process_reads_a_page_from_what_the_first_left() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(pdf) = copy("refman.pdf", tmp.path()) else {
        return;
    };
    let dir = tmp.path().join("index");
    let plain = read(&Reader::new(), &pdf, "1000");

    let (first, cache) = process(&dir);
    assert_eq!(read(&first, &pdf, "1000"), plain);
    assert_eq!(cache.stats().written, 1, "{:?}", cache.stats());
    assert_eq!(entries(&dir).len(), 1);

    // A new process: the same page from the directory, and nothing new to write.
    let (second, cache) = process(&dir);
    assert_eq!(read(&second, &pdf, "1000"), plain);
    let s = cache.stats();
    assert_eq!((s.loaded, s.written), (1, 0), "{s:?}");

    // A page not read before: from the stored cross-reference data, the same text as a
    // read without it, and the entry grows by that page.
    let (third, cache) = process(&dir);
    assert_eq!(
        read(&third, &pdf, "2000-2001"),
        read(&Reader::new(), &pdf, "2000-2001")
    );
    assert_eq!(cache.stats().written, 1);
    let (fourth, cache) = process(&dir);
    assert_eq!(
        read(&fourth, &pdf, "2001"),
        read(&Reader::new(), &pdf, "2001")
    );
    assert_eq!(
        cache.stats().written,
        0,
        "page 2001 was learned by the third"
    );

    // The budget applies to a kept page as to an extracted one.
    let small = Reader::new().max_bytes(100);
    let (fifth, _) = process(&dir);
    let fifth = fifth.max_bytes(100);
    assert_eq!(read(&fifth, &pdf, "1000"), read(&small, &pdf, "1000"));
    assert!(read(&fifth, &pdf, "1000").pages[0].cut);
    // A page past the end is the same error, with the page count.
    let e = fifth
        .read_document(&pdf, &DocumentRequest::new().pages("2416".parse().unwrap()))
        .unwrap_err();
    assert!(e.to_string().contains("2415"), "{e}");
}

#[test]
fn a_changed_file_is_read_as_it_is_now() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(pdf) = copy("refman.pdf", tmp.path()) else {
        return;
    };
    let Some(gnuplot) = fixture("gnuplot.pdf") else {
        return;
    };
    let dir = tmp.path().join("index");
    let (first, _) = process(&dir);
    let before = read(&first, &pdf, "1");
    // Another PDF in its place (over 1 MiB, so that its entry is stored too).
    std::fs::copy(&gnuplot, &pdf).unwrap();
    let (second, cache) = process(&dir);
    let after = read(&second, &pdf, "1");
    assert_ne!(after.pages[0].text, before.pages[0].text);
    assert_eq!(after, read(&Reader::new(), &pdf, "1"));
    assert_eq!(cache.stats().loaded, 0, "the stale entry is not used");
    // Within one process too: the cache sees the new version.
    std::fs::copy(fixture("refman.pdf").unwrap(), &pdf).unwrap();
    assert_eq!(read(&second, &pdf, "1"), before);
}

#[test]
fn a_damaged_entry_is_ignored_and_replaced() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(pdf) = copy("refman.pdf", tmp.path()) else {
        return;
    };
    let dir = tmp.path().join("index");
    let (first, _) = process(&dir);
    let want = read(&first, &pdf, "7");
    let entry = entries(&dir).pop().unwrap();
    let mut bytes = std::fs::read(&entry).unwrap();
    let mid = bytes.len() / 2;
    bytes[mid] ^= 0x55;
    std::fs::write(&entry, &bytes).unwrap();
    let (second, cache) = process(&dir);
    assert_eq!(read(&second, &pdf, "7"), want);
    let s = cache.stats();
    assert_eq!((s.loaded, s.written), (0, 1), "{s:?}");
    let (third, cache) = process(&dir);
    assert_eq!(read(&third, &pdf, "7"), want);
    assert_eq!(cache.stats().loaded, 1);
}

#[test]
fn an_encrypted_files_text_is_never_written_to_the_directory() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(src) = fixture("refman.pdf") else {
        return;
    };
    let pdf = tmp.path().join("locked-refman.pdf");
    // An empty user password (it opens without one) and AES-256: what a "protected"
    // download often is.
    let out = Command::new("qpdf")
        .args(["--encrypt", "", "owner-secret", "256", "--"])
        .arg(&src)
        .arg(&pdf)
        .output()
        .expect("qpdf (tests/documents/setup.sh installs it)");
    assert!(out.status.success(), "{out:?}");
    let dir = tmp.path().join("index");
    let (first, cache) = process(&dir);
    let page = read(&first, &pdf, "1");
    assert!(page.encrypted);
    assert!(page.pages[0].text.contains("Permission is granted"));
    assert_eq!(cache.stats().written, 1, "the cross-reference data is kept");
    let stored = std::fs::read(entries(&dir).pop().unwrap()).unwrap();
    assert!(
        memchr::memmem::find(&stored, b"Permission is granted").is_none(),
        "the page's text is in the index directory"
    );
    // The next process decrypts again, from the kept cross-reference data.
    let (second, cache) = process(&dir);
    assert_eq!(read(&second, &pdf, "1"), page);
    assert_eq!(cache.stats().loaded, 1);
}

#[test]
fn pages_of_updated_hybrid_linearized_and_rebuilt_files_read_the_same_from_the_cache() {
    for name in [
        "incremental.pdf",
        "hybrid.pdf",
        "linearized.pdf",
        "broken-xref.pdf",
        "objstm.pdf",
        "xref-table.pdf",
        "gnuplot.pdf",
    ] {
        let Some(pdf) = fixture(name) else {
            return;
        };
        let plain = Reader::new();
        let count = read(&plain, &pdf, "1").page_count;
        let tmp = tempfile::tempdir().unwrap();
        let (cached, _) = process(tmp.path());
        // Pages in an order that is not the file's, each read twice: first from the
        // kept cross-reference data, then from the kept text.
        let some: Vec<u64> = (1..=count).rev().step_by(11).collect();
        for &n in some.iter().chain(&some) {
            let want = read(&plain, &pdf, &n.to_string());
            assert_eq!(read(&cached, &pdf, &n.to_string()), want, "{name} page {n}");
        }
        // A new process over the directory (files over 1 MiB are stored there): a range
        // that starts with pages read before and goes on with others.
        let (again, _) = process(tmp.path());
        let range = format!("{}-{}", some[some.len() - 2], some[some.len() - 2] + 4);
        assert_eq!(
            read(&again, &pdf, &range),
            read(&plain, &pdf, &range),
            "{name}"
        );
    }
}

#[test]
fn the_overview_leaves_every_page_for_the_next_read() {
    let tmp = tempfile::tempdir().unwrap();
    let Some(pdf) = copy("refman.pdf", tmp.path()) else {
        return;
    };
    let dir = tmp.path().join("index");
    let (first, _) = process(&dir);
    let overview = read(&first, &pdf, "");
    assert_eq!(overview.page_count, 2415);
    let (second, cache) = process(&dir);
    assert_eq!(
        read(&second, &pdf, "1500"),
        read(&Reader::new(), &pdf, "1500")
    );
    assert_eq!(cache.stats().loaded, 1);
}
