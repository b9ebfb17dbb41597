//! PDFs read by pages (feature `pdf`): real manuals from Debian's documentation packages
//! (an outline, a title, 2,415 pages; tests/documents/SOURCES.md), encrypted and scanned
//! copies, text compared with poppler's pdftotext, and hostile files (deflate bombs,
//! truncated and malformed files, a parser panic).
#![cfg(feature = "pdf")]

mod documents;

use std::collections::HashMap;
use std::process::Command;
use std::time::{Duration, Instant};

use documents::{big_pdf, fixture, one_page_pdf, pdf, stream, zlib_zeros};
use rangeread::pdf::{self as rpdf, PageSelection, PdfLoading, PdfOptions, PdfRead};
use rangeread::{DocumentRead, DocumentRequest, ErrorKind, Reader, Source};

fn read_with(path: &std::path::Path, pages: &str, reader: Reader) -> rangeread::Result<PdfRead> {
    let req = DocumentRequest::new().pages(pages.parse()?);
    match reader.read_document(path, &req)? {
        DocumentRead::Pdf(p) => Ok(p),
        other => panic!("{} read as {other:?}", path.display()),
    }
}

fn read(path: &std::path::Path, pages: &str) -> rangeread::Result<PdfRead> {
    read_with(path, pages, Reader::new())
}

#[test]
fn without_a_selection_the_overview_then_pages_until_the_budget() {
    let Some(path) = fixture("r-intro.pdf") else {
        return;
    };
    let r = read(&path, "").unwrap();
    assert_eq!(r.page_count, 113);
    assert_eq!(r.page_info.len(), 113);
    assert_eq!(
        (r.outline[0].title.as_str(), r.outline[0].page),
        ("Preface", 7)
    );
    assert!(r.outline.iter().any(|o| o.level == 2));
    assert_eq!(r.pages[0].page, 1);
    let t = r.truncated.expect("113 pages are over 100 KiB");
    assert_eq!(t.next_page, r.pages.len() as u64 + 1);
    let text = r.render();
    assert!(text.starts_with("PDF "));
    assert!(
        text.contains("Outline (page):\n  Preface (7)\n  1 Introduction and preliminaries (8)\n")
    );
    assert!(text.contains("--- page 1 ---\n"));
    assert!(text.ends_with(&format!("continue with pages=\"{}-\"]\n", t.next_page)));
}

#[test]
fn following_the_continuation_returns_every_page_once() {
    let Some(path) = fixture("r-intro.pdf") else {
        return;
    };
    let reader = Reader::new().max_bytes(40 * 1024);
    let mut seen = Vec::new();
    let mut next = "1-".to_string();
    loop {
        let r = read_with(&path, &next, reader.clone()).unwrap();
        assert!(r.page_info.is_empty(), "a selection skips the overview");
        let bytes: usize = r.pages.iter().map(|p| p.text.len()).sum();
        assert!(bytes <= 40 * 1024 || r.pages.len() == 1);
        seen.extend(r.pages.iter().map(|p| p.page));
        match r.truncated {
            Some(t) => next = format!("{}-", t.next_page),
            None => break,
        }
    }
    assert_eq!(seen, (1..=113).collect::<Vec<u64>>());
}

#[test]
fn page_selections_and_the_end_of_the_document() {
    let Some(path) = fixture("gnuplot.pdf") else {
        return;
    };
    let r = read(&path, "3").unwrap();
    assert_eq!(r.pages.iter().map(|p| p.page).collect::<Vec<_>>(), [3]);
    assert_eq!(r.title.as_deref(), Some("gnuplot documentation"));
    let r = read(&path, "2-9").unwrap();
    assert_eq!(
        r.pages.iter().map(|p| p.page).collect::<Vec<_>>(),
        (2..=9).collect::<Vec<_>>()
    );
    let r = read(&path, "310-").unwrap();
    assert_eq!(
        r.pages.iter().map(|p| p.page).collect::<Vec<_>>(),
        [310, 311]
    );
    let r = read(&path, "305-400").unwrap();
    assert_eq!(
        r.pages.last().unwrap().page,
        311,
        "an end past the last page is clamped"
    );
    let e = read(&path, "312").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidRange);
    assert_eq!(
        e.to_string(),
        "Invalid pages: page 312 is beyond the end of the document (311 pages). Ask for pages within 1-311."
    );
    let e = "1,3".parse::<PageSelection>().unwrap_err();
    assert!(e.to_string().contains("Pages are numbered from 1"), "{e}");
}

/// The words of a text, counted.
fn words(text: &str) -> HashMap<String, usize> {
    let mut m = HashMap::new();
    for w in text.split_whitespace() {
        *m.entry(w.to_string()).or_insert(0) += 1;
    }
    m
}

/// The share of pdftotext's words of a page that our text has too (as a multiset).
fn recall(ours: &str, reference: &str) -> f64 {
    let (a, b) = (words(ours), words(reference));
    let total: usize = b.values().sum();
    if total == 0 {
        return 1.0;
    }
    let found: usize = b
        .iter()
        .map(|(w, n)| (*n).min(a.get(w).copied().unwrap_or(0)))
        .sum();
    found as f64 / total as f64
}

fn pdftotext(path: &std::path::Path, page: u64) -> String {
    let out = Command::new("pdftotext")
        .args(["-f", &page.to_string(), "-l", &page.to_string()])
        .arg(path)
        .arg("-")
        .output()
        .expect("pdftotext (poppler-utils, installed by tests/documents/setup.sh)");
    assert!(out.status.success());
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn text_per_page_agrees_with_pdftotext_on_most_words_of_most_pages() {
    let Some(_) = fixture("") else { return };
    let mut pages = 0;
    let mut agree = 0;
    let mut sum = 0.0;
    // Every page of two manuals, every 5th of 200 pages deep in the 2,415-page one.
    for (name, range, step) in [
        ("r-intro.pdf", "1-", 1),
        ("gnuplot.pdf", "1-", 1),
        ("refman.pdf", "1001-1200", 5),
    ] {
        let path = fixture(name).unwrap();
        let mut req = DocumentRequest::new().pages(range.parse().unwrap());
        // Hundreds of pages in a debug build on a busy machine take longer than the 30 s
        // a call has by default.
        req.pdf.timeout = Duration::from_secs(900);
        let DocumentRead::Pdf(all) = Reader::new()
            .max_bytes(0)
            .read_document(&path, &req)
            .unwrap()
        else {
            panic!("{name} is not read as a PDF")
        };
        assert!(all.truncated.is_none());
        for p in all.pages.iter().step_by(step) {
            let r = recall(&p.text, &pdftotext(&path, p.page));
            pages += 1;
            sum += r;
            if r >= 0.9 {
                agree += 1;
            }
        }
    }
    let share = f64::from(agree) / f64::from(pages);
    eprintln!(
        "pdftotext agreement: {agree} of {pages} pages ({:.1}%) have at least 90% of \
         pdftotext's words; mean recall {:.1}%",
        share * 100.0,
        sum / f64::from(pages) * 100.0
    );
    assert!(share >= 0.9, "{agree} of {pages} pages agree");
}

#[test]
fn pages_without_a_text_layer_are_flagged_as_scanned() {
    let Some(path) = fixture("scanned.pdf") else {
        return;
    };
    let r = read(&path, "").unwrap();
    assert_eq!(r.page_count, 3);
    assert!(r.page_info.iter().all(|p| !p.has_text && p.has_images));
    assert!(r
        .pages
        .iter()
        .all(|p| p.no_text && p.likely_scanned && p.text.is_empty()));
    let text = r.render();
    assert!(text.contains("Pages without a text layer (those with images are likely scanned): 1-3"));
    assert!(text.contains("likely scanned; OCR would be needed"));
    // A real manual's pages all have text.
    let r = read(&fixture("r-intro.pdf").unwrap(), "").unwrap();
    assert!(r
        .page_info
        .iter()
        .filter(|p| p.page > 1)
        .all(|p| p.has_text));
}

#[test]
fn an_encrypted_pdf_opens_with_the_empty_password_and_a_locked_one_says_so() {
    let Some(path) = fixture("encrypted.pdf") else {
        return;
    };
    let r = read(&path, "2").unwrap();
    assert!(r.encrypted);
    assert!(r.pages[0]
        .text
        .contains("This manual is for R, version 4.2.2"));
    let e = read(&fixture("locked.pdf").unwrap(), "1").unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidDocument);
    assert!(
        e.to_string().contains("encrypted and needs a password"),
        "{e}"
    );
    let mut with = DocumentRequest::new();
    with.pdf.password = "secret".into();
    let r = Reader::new()
        .read_document(
            fixture("locked.pdf").unwrap(),
            &with.pages("2".parse().unwrap()),
        )
        .unwrap();
    let DocumentRead::Pdf(r) = r else { panic!() };
    assert!(r.pages[0].text.contains("This manual is for R"));
}

fn options() -> PdfOptions {
    PdfOptions::default()
}

/// The options of a read that parses the whole file first (the reference).
fn whole() -> PdfOptions {
    let mut o = PdfOptions::default();
    o.loading = PdfLoading::WholeFile;
    o
}

#[test]
fn a_content_stream_bomb_stops_at_the_decompression_limit() {
    // 1 GiB of zeros behind a 1 MiB deflate stream, as a page's content.
    let bomb = zlib_zeros(1 << 30);
    let doc = one_page_pdf(stream("/Filter /FlateDecode", &bomb), true);
    let src = Source::from_bytes(doc, "bomb.pdf");
    let t = Instant::now();
    let e = rpdf::read(&src, "1".parse().unwrap(), &options()).unwrap_err();
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    assert_eq!(e.kind(), ErrorKind::DocumentLimit);
    assert!(
        e.to_string()
            .contains("would decompress to more than 536870912 bytes by page 1"),
        "{e}"
    );
}

#[test]
fn an_object_stream_bomb_stops_before_the_parser_inflates_it() {
    let bomb = zlib_zeros(1 << 30);
    // Parsed whole: every object stream is counted before lopdf inflates it.
    let doc = pdf(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [] /Count 0 >>".to_vec(),
        stream("/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", &bomb),
    ]);
    let src = Source::from_bytes(doc, "objstm.pdf");
    let t = Instant::now();
    let e = rpdf::read(&src, PageSelection::All, &whole()).unwrap_err();
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    assert_eq!(e.kind(), ErrorKind::DocumentLimit);
    assert!(e.to_string().contains("in its object streams"), "{e}");
    // On demand: an object stream is decoded when an object in it is needed (here the
    // page tree), within the same allowance.
    let doc = with_xref_stream(
        &[
            b"<< /Type /Catalog /Pages 4 0 R >>".to_vec(),
            b"<< /Producer (rangeread tests) >>".to_vec(),
            stream("/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", &bomb),
        ],
        &[(4, 3)],
    );
    let src = Source::from_bytes(doc, "objstm.pdf");
    for pages in ["", "1"] {
        let e = rpdf::read(&src, pages.parse().unwrap(), &options()).unwrap_err();
        assert!(t.elapsed() < Duration::from_secs(120), "{:?}", t.elapsed());
        assert_eq!(e.kind(), ErrorKind::DocumentLimit);
        assert!(
            e.to_string()
                .contains("would decompress to more than 536870912 bytes"),
            "{e}"
        );
    }
}

#[test]
fn an_object_stream_that_holds_itself_is_an_error_not_a_stack_overflow() {
    // The page tree is object 4, listed in object stream 4 (itself), and object 3 is an
    // object stream whose /Length is object 5, listed in object stream 3.
    let doc = with_xref_stream(
        &[
            b"<< /Type /Catalog /Pages 4 0 R >>".to_vec(),
            b"<< /Producer (rangeread tests) >>".to_vec(),
            b"<< /Type /ObjStm /N 1 /First 4 /Length 5 0 R >>\nstream\n5 0 9\nendstream".to_vec(),
        ],
        &[(4, 4), (5, 3)],
    );
    let src = Source::from_bytes(doc, "selfish.pdf");
    for pages in ["", "1"] {
        match rpdf::read(&src, pages.parse().unwrap(), &options()) {
            Ok(r) => assert_eq!(r.page_count, 0),
            Err(e) => assert!(
                matches!(
                    e.kind(),
                    ErrorKind::InvalidDocument | ErrorKind::InvalidRange
                ),
                "{e}"
            ),
        }
    }
}

/// A PDF 1.5 file whose cross-reference data is a stream (uncompressed, `/W [1 4 2]`):
/// `objects` numbered from 1, then `compressed` entries (object, its object stream).
fn with_xref_stream(objects: &[Vec<u8>], compressed: &[(u32, u32)]) -> Vec<u8> {
    let mut out = b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut rows: Vec<(u8, u32, u16)> = vec![(0, 0, 65535)];
    for (i, body) in objects.iter().enumerate() {
        rows.push((1, out.len() as u32, 0));
        out.extend(format!("{} 0 obj\n", i + 1).bytes());
        out.extend(body);
        out.extend(b"\nendobj\n");
    }
    for &(_, container) in compressed {
        rows.push((2, container, 0));
    }
    let id = rows.len();
    let at = out.len();
    rows.push((1, at as u32, 0));
    let mut data = Vec::new();
    for (t, a, b) in &rows {
        data.push(*t);
        data.extend(a.to_be_bytes());
        data.extend(b.to_be_bytes());
    }
    out.extend(
        format!(
            "{id} 0 obj\n<< /Type /XRef /Size {} /W [1 4 2] /Root 1 0 R /Length {} >>\nstream\n",
            rows.len(),
            data.len()
        )
        .bytes(),
    );
    out.extend(&data);
    out.extend(format!("\nendstream\nendobj\nstartxref\n{at}\n%%EOF\n").bytes());
    out
}

#[test]
fn a_panic_in_the_text_extractor_is_an_error_not_a_dead_process() {
    // No MediaBox: pdf-extract's layout expects one (and panics without it).
    let doc = one_page_pdf(stream("", b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET"), false);
    let src = Source::from_bytes(doc, "nomediabox.pdf");
    let e = rpdf::read(&src, "1".parse().unwrap(), &options()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidDocument);
    assert!(e.to_string().contains("page 1 could not be read"), "{e}");
    // The same page with a MediaBox reads.
    let doc = one_page_pdf(stream("", b"BT /F1 12 Tf 72 700 Td (Hello) Tj ET"), true);
    let r = rpdf::read(
        &Source::from_bytes(doc, "ok.pdf"),
        PageSelection::All,
        &options(),
    )
    .unwrap();
    assert_eq!(r.pages[0].text, "Hello\n");
}

/// A one-page PDF whose page draws `/X0`, an XObject (object 5) with `dict` and `data`.
fn drawing(dict: &str, data: &[u8]) -> Vec<u8> {
    pdf(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
           /Resources << /XObject << /X0 5 0 R >> >> >>"
            .to_vec(),
        stream("", b"q /X0 Do Q"),
        stream(dict, data),
    ])
}

#[test]
fn an_xobject_that_draws_itself_is_refused_before_it_overflows_the_stack() {
    // A form without resources inherits the page's, which name the form itself; the
    // fuzz target found the same through an image whose bytes read as `/Im0 Do`.
    for (dict, data) in [
        (
            "/Type /XObject /Subtype /Form /BBox [0 0 10 10]",
            &b"/X0 Do"[..],
        ),
        (
            "/Type /XObject /Subtype /Image /Width 1 /Height 1",
            b"/X0 Do",
        ),
    ] {
        let src = Source::from_bytes(drawing(dict, data), "cycle.pdf");
        let e = rpdf::read(&src, PageSelection::All, &options()).unwrap_err();
        assert_eq!(e.kind(), ErrorKind::InvalidDocument, "{dict}");
        assert!(e.to_string().contains("XObject 5 0 R draws itself"), "{e}");
    }
    // A form drawing a form drawing ... 12 deep, each twice: 8190 visits, within bounds;
    // one level more is over the 10,000 a page may draw.
    let deep = |levels: usize| {
        let mut objects = vec![
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
               /Resources << /XObject << /X0 5 0 R >> >> >>"
                .to_vec(),
            stream("", b"/X0 Do"),
        ];
        for i in 0..levels {
            let next = 6 + i;
            let body: &[u8] = if i + 1 < levels {
                b"/X0 Do /X0 Do"
            } else {
                b""
            };
            objects.push(stream(
                &format!(
                    "/Type /XObject /Subtype /Form /BBox [0 0 1 1] \
                     /Resources << /XObject << /X0 {next} 0 R >> >>"
                ),
                body,
            ));
        }
        pdf(&objects)
    };
    let r = rpdf::read(
        &Source::from_bytes(deep(12), "deep.pdf"),
        PageSelection::All,
        &options(),
    );
    assert!(r.is_ok(), "{r:?}");
    let e = rpdf::read(
        &Source::from_bytes(deep(14), "deep.pdf"),
        PageSelection::All,
        &options(),
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DocumentLimit);
    assert!(
        e.to_string().contains("draws more than 10000 XObjects"),
        "{e}"
    );
}

#[test]
fn truncated_and_malformed_pdfs_fail_cleanly_in_bounded_time() {
    let Some(path) = fixture("r-intro.pdf") else {
        return;
    };
    let bytes = std::fs::read(&path).unwrap();
    let t = Instant::now();
    for cut in [
        10,
        1000,
        bytes.len() / 10,
        bytes.len() / 2,
        bytes.len() - 10,
    ] {
        let src = Source::from_bytes(bytes[..cut].to_vec(), "cut.pdf");
        match rpdf::read(&src, "1-3".parse().unwrap(), &options()) {
            Ok(r) => assert!(r.page_count > 0, "cut at {cut}"),
            Err(e) => assert!(
                matches!(
                    e.kind(),
                    ErrorKind::InvalidDocument | ErrorKind::InvalidRange
                ),
                "cut at {cut}: {e}"
            ),
        }
    }
    let mut junk = b"%PDF-1.7\n".to_vec();
    junk.extend((0..100_000u32).map(|i| (i.wrapping_mul(2_654_435_761) >> 13) as u8));
    let e = rpdf::read(
        &Source::from_bytes(junk, "junk.pdf"),
        PageSelection::All,
        &options(),
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidDocument);
    assert!(e.to_string().contains("cannot be read as a PDF"), "{e}");
    assert!(t.elapsed() < Duration::from_secs(120), "{:?}", t.elapsed());
}

#[test]
fn the_time_limit_stops_a_long_read() {
    let Some(path) = fixture("refman.pdf") else {
        return;
    };
    let mut req = DocumentRequest::new().pages("1-".parse().unwrap());
    req.pdf.timeout = Duration::from_millis(1);
    let e = Reader::new()
        .max_bytes(0)
        .read_document(&path, &req)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DocumentLimit);
    assert!(e.to_string().contains("took longer than"), "{e}");
}

#[test]
fn one_page_deep_in_a_long_manual() {
    let Some(path) = fixture("refman.pdf") else {
        return;
    };
    let r = read(&path, "1000").unwrap();
    assert_eq!(r.page_count, 2415);
    let ours = &r.pages[0].text;
    assert!(ours.starts_with("dotchart 969\n"), "{ours}");
    assert!(recall(ours, &pdftotext(&path, 1000)) > 0.95);
}

/// Every page of `name`, read with `loading` and no byte budget.
fn every_page(name: &str, loading: PdfLoading) -> PdfRead {
    pages_of(name, "1-", loading)
}

/// The pages `range` of `name`, read with `loading` and no byte budget.
fn pages_of(name: &str, range: &str, loading: PdfLoading) -> PdfRead {
    let mut req = DocumentRequest::new().pages(range.parse().unwrap());
    req.pdf.loading = loading;
    // 2,415 pages in a debug build take longer than the 30 s a call has by default.
    req.pdf.timeout = Duration::from_secs(900);
    let r = Reader::new()
        .max_bytes(0)
        .read_document(fixture(name).unwrap(), &req);
    match r.unwrap_or_else(|e| panic!("{name}: {e}")) {
        DocumentRead::Pdf(p) => p,
        other => panic!("{name} read as {other:?}"),
    }
}

/// Reads every page of each PDF on demand and from the whole file, and compares them.
fn on_demand_equals_whole_file(names: &[&str]) {
    for &name in names {
        on_demand_equals_whole_file_on(name, "1-");
    }
}

/// Reads the pages `range` of `name` on demand and from the whole file, and compares them.
fn on_demand_equals_whole_file_on(name: &str, range: &str) {
    let Some(_) = fixture("") else { return };
    let lazy = pages_of(name, range, PdfLoading::OnDemand);
    let eager = pages_of(name, range, PdfLoading::WholeFile);
    assert_eq!(
        (lazy.page_count, &lazy.title, lazy.encrypted),
        (eager.page_count, &eager.title, eager.encrypted),
        "{name}"
    );
    let first = lazy.pages.first().map_or(0, |p| p.page);
    let want = lazy.page_count.min(range_end(range, lazy.page_count)) + 1 - first;
    assert_eq!(lazy.pages.len() as u64, want, "{name} pages {range}");
    assert_eq!(lazy.pages.len(), eager.pages.len(), "{name} pages {range}");
    for (a, b) in lazy.pages.iter().zip(&eager.pages) {
        assert_eq!(a, b, "{name} page {}", a.page);
    }
}

/// The last page `range` names (`"A-B"`, or `"A-"`: the document's last, `count`).
fn range_end(range: &str, count: u64) -> u64 {
    range
        .split_once('-')
        .and_then(|(_, end)| end.parse().ok())
        .unwrap_or(count)
}

// Three tests, not one: a debug build spends minutes on refman.pdf's 2,415 pages, and the
// test threads share the PDFs out only by test. The long manual's test sorts first, so it
// starts first (libtest starts tests in name order). Of the long manual, its first pages,
// a stretch in the middle and its last pages (480 of 2,415: the whole manual took over
// three minutes of CI's forty on 2 cores, twice over its pages); the two other manuals
// below are read whole.
#[test]
fn a_long_manual_reads_on_demand_as_from_the_whole_file_at_its_start_middle_and_end() {
    for range in ["1-160", "1100-1259", "2256-"] {
        on_demand_equals_whole_file_on("refman.pdf", range);
    }
}

#[test]
fn reads_on_demand_give_the_text_of_whole_file_reads_on_every_page_of_each_revision_form() {
    on_demand_equals_whole_file(&[
        "encrypted.pdf",
        "linearized.pdf",
        "incremental.pdf",
        "xref-table.pdf",
        "scanned.pdf",
    ]);
}

#[test]
fn reads_on_demand_give_the_text_of_whole_file_reads_on_every_page() {
    let Some(_) = fixture("") else { return };
    on_demand_equals_whole_file(&["r-intro.pdf", "gnuplot.pdf"]);
    // The overview (every page's size, the outline) too.
    let path = fixture("r-intro.pdf").unwrap();
    let lazy = rpdf::read(
        &Source::open(&path).unwrap(),
        PageSelection::All,
        &options(),
    );
    let eager = rpdf::read(&Source::open(&path).unwrap(), PageSelection::All, &whole());
    assert_eq!(lazy.unwrap(), eager.unwrap());
}

#[test]
fn an_incrementally_updated_pdf_reads_as_its_newest_revision() {
    let Some(path) = fixture("incremental.pdf") else {
        return;
    };
    // MuPDF appended a revision: a new title, and page 1 showing page 2's content.
    let r = read(&path, "1-2").unwrap();
    assert_eq!(r.title.as_deref(), Some("An Introduction to R (updated)"));
    assert_eq!(r.pages[0].text, r.pages[1].text);
    assert!(recall(&r.pages[0].text, &pdftotext(&path, 1)) > 0.95);
    let original = read(&fixture("r-intro.pdf").unwrap(), "1-2").unwrap();
    assert_eq!(r.pages[1].text, original.pages[1].text);
    assert_ne!(r.pages[0].text, original.pages[0].text);
}

#[test]
fn a_hybrid_reference_file_finds_the_objects_its_table_leaves_to_its_stream() {
    let Some(path) = fixture("hybrid.pdf") else {
        return;
    };
    // Its table lists only the objects outside object streams; the catalog, the page
    // tree and the pages are in the stream /XRefStm names.
    let hybrid = every_page("hybrid.pdf", PdfLoading::OnDemand);
    let original = every_page("r-intro.pdf", PdfLoading::OnDemand);
    assert_eq!(hybrid.page_count, 113);
    assert_eq!(hybrid.pages, original.pages);
    assert!(recall(&hybrid.pages[49].text, &pdftotext(&path, 50)) > 0.9);
}

#[test]
fn a_broken_cross_reference_table_is_rebuilt_from_the_file() {
    let Some(path) = fixture("broken-xref.pdf") else {
        return;
    };
    // Every offset of its table is 50 bytes short: lopdf's whole-file load gives up,
    // the on-demand read finds the objects by scanning the file, as poppler does.
    let mut req = DocumentRequest::new().pages("1-".parse().unwrap());
    req.pdf.loading = PdfLoading::WholeFile;
    let e = Reader::new().read_document(&path, &req).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidDocument);
    let broken = every_page("broken-xref.pdf", PdfLoading::OnDemand);
    let intact = every_page("xref-table.pdf", PdfLoading::OnDemand);
    assert_eq!(broken.page_count, 113);
    assert_eq!(broken.pages, intact.pages);
    assert!(recall(&broken.pages[49].text, &pdftotext(&path, 50)) > 0.9);
}

#[test]
fn a_pdf_over_300_mib_reads_its_pages_on_demand() {
    let Some(path) = big_pdf() else { return };
    let len = std::fs::metadata(&path).unwrap().len();
    assert!(len > 300 << 20, "{len}");
    // R's reference manual 30 times over: page 5 is the first copy's, the last page the
    // last copy's; both as in the manual itself and as pdftotext reads them.
    let manual = fixture("refman.pdf").unwrap();
    for (page, same_as) in [(5, 5), (72_450, 2415)] {
        let r = read(&path, &page.to_string()).unwrap();
        assert_eq!(r.page_count, 72_450);
        assert_eq!(
            r.pages[0].text,
            read(&manual, &same_as.to_string()).unwrap().pages[0].text
        );
        assert!(recall(&r.pages[0].text, &pdftotext(&path, page)) > 0.9);
    }
    // A whole-file parse refuses it, naming the way that reads it.
    let mut req = DocumentRequest::new().pages("5".parse().unwrap());
    req.pdf.loading = PdfLoading::WholeFile;
    let e = Reader::new().read_document(&path, &req).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::DocumentLimit);
    assert!(e.to_string().contains("PdfLoading::OnDemand"), "{e}");
}

/// `mutool show FILE outline`: (depth, title, page) of every bookmark.
fn mutool_outline(path: &std::path::Path) -> Vec<(u32, String, u64)> {
    let out = Command::new("mutool")
        .arg("show")
        .arg(path)
        .arg("outline")
        .output()
        .expect("mutool (tests/documents/setup.sh installs mupdf-tools)");
    assert!(out.status.success(), "{out:?}");
    String::from_utf8_lossy(&out.stdout)
        .lines()
        .map(|line| {
            // `|<tabs>"Title"<tab>#page=N&...`: one tab a level.
            let body = line.trim_start_matches(['|', '+', '-']);
            let level = body.chars().take_while(|&c| c == '\t').count() as u32;
            let (title, rest) = body
                .trim_start_matches('\t')
                .rsplit_once("\t#page=")
                .unwrap();
            let page = rest.split('&').next().unwrap().parse().unwrap();
            let title = title.strip_prefix('"').unwrap().strip_suffix('"').unwrap();
            let title = title.replace("\\\"", "\"");
            (level, title.trim().to_string(), page)
        })
        .collect()
}

#[test]
fn the_outline_agrees_with_mutool_on_every_bookmark() {
    let Some(_) = fixture("") else { return };
    // R's manual: 1,426 bookmarks to named destinations in a name tree (hyperref).
    for (name, count) in [
        ("refman.pdf", 1426),
        ("r-intro.pdf", 145),
        ("gnuplot.pdf", 648),
    ] {
        let path = fixture(name).unwrap();
        let ours: Vec<(u32, String, u64)> = read(&path, "")
            .unwrap()
            .outline
            .into_iter()
            .map(|o| (o.level, o.title, o.page))
            .collect();
        let theirs = mutool_outline(&path);
        assert_eq!((ours.len(), theirs.len()), (count, count), "{name}");
        for (i, (a, b)) in ours.iter().zip(&theirs).enumerate() {
            assert_eq!(a, b, "{name}: bookmark {i}");
        }
    }
}

#[test]
fn an_outline_that_loops_through_its_siblings_and_its_name_tree_ends() {
    let objects: Vec<Vec<u8>> = [
        "<< /Type /Catalog /Pages 2 0 R /Outlines 4 0 R /Names << /Dests 7 0 R >> >>",
        "<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        "<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] >>",
        "<< /Type /Outlines /First 5 0 R >>",
        // A named destination, then an action; the second names the first as its next.
        "<< /Title (Named) /Dest (n1) /Next 6 0 R >>",
        "<< /Title <FEFF00C400630074> /A << /S /GoTo /D [3 0 R /Fit] >> /Next 5 0 R /First 6 0 R >>",
        // A name tree whose root is its own kid.
        "<< /Kids [8 0 R 7 0 R] >>",
        "<< /Limits [(a) (z)] /Names [(n1) [3 0 R /Fit] (n2) (n1)] >>",
    ]
    .iter()
    .map(|o| o.as_bytes().to_vec())
    .collect();
    let bytes = pdf(&objects);
    let src = Source::from_bytes(bytes, "loops.pdf");
    let r = rpdf::read(&src, PageSelection::All, &options()).unwrap();
    let got: Vec<(u32, &str, u64)> = r
        .outline
        .iter()
        .map(|o| (o.level, o.title.as_str(), o.page))
        .collect();
    assert_eq!(got, [(1, "Named", 1), (1, "Äct", 1)]);
}

#[test]
fn a_pdf_whose_objects_lie_past_4_gib_reads_them_where_they_are() {
    use std::io::{Seek, SeekFrom, Write};
    // The header, 4.5 GiB of nothing (a sparse file: no disk used), then the objects and
    // a classic table whose 10-digit offsets do not fit in 32 bits.
    let tmp = tempfile::tempdir().unwrap();
    let path = tmp.path().join("past-4-gib.pdf");
    let mut f = std::fs::File::create(&path).unwrap();
    f.write_all(b"%PDF-1.4\n%\xe2\xe3\xcf\xd3\n").unwrap();
    let gap: u64 = (4 << 30) + (512 << 20);
    f.seek(SeekFrom::Start(gap)).unwrap();
    let content = b"BT /F1 24 Tf 72 700 Td (Read past four GiB) Tj ET";
    let objects: Vec<Vec<u8>> = vec![
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R \
           /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_vec(),
        stream("", content),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
    ];
    let mut tail = Vec::new();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(gap + tail.len() as u64);
        tail.extend(format!("{} 0 obj\n", i + 1).bytes());
        tail.extend(body);
        tail.extend(b"\nendobj\n");
    }
    let xref = gap + tail.len() as u64;
    tail.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
    for off in offsets {
        assert!(off > u64::from(u32::MAX));
        tail.extend(format!("{off:010} 00000 n \n").bytes());
    }
    tail.extend(format!("trailer\n<< /Size 6 /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n").bytes());
    f.write_all(&tail).unwrap();
    drop(f);
    let r = read(&path, "1").unwrap();
    assert_eq!(r.page_count, 1);
    assert_eq!(r.pages[0].text.trim(), "Read past four GiB");
}

#[test]
fn a_page_that_sets_text_in_a_font_its_resources_lack_reads_with_a_stand_in() {
    // The page selects /F1 and defines no font at all (no /Resources): poppler, pdf.js
    // and pdfminer read its text with a default font; pdf-extract alone would panic.
    let page = |resources: &str| {
        pdf(&[
            b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
            b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
            format!("<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R {resources} >>")
                .into_bytes(),
            stream("", b"BT /F1 24 Tf 72 720 Td (Hello PDF) Tj ET BT /F2 12 Tf 72 600 Td (second) Tj ET"),
            b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>".to_vec(),
        ])
    };
    for (resources, what) in [
        ("", "no resources"),
        (
            "/Resources << /ProcSet [/PDF /Text] >>",
            "resources without /Font",
        ),
        (
            "/Resources << /Font << /F1 5 0 R >> >>",
            "/F2 missing from /Font",
        ),
        (
            "/Resources << /Font << /F1 5 0 R /F2 9 0 R >> >>",
            "/F2 a dangling reference",
        ),
    ] {
        for loading in [PdfLoading::WholeFile, PdfLoading::OnDemand] {
            let src = Source::from_bytes(page(resources), "nofont.pdf");
            let mut opts = options();
            opts.loading = loading;
            let r = rpdf::read(&src, PageSelection::All, &opts)
                .unwrap_or_else(|e| panic!("{what}, {loading:?}: {e}"));
            assert_eq!(
                r.pages[0].text, "Hello PDF\n\nsecond\n",
                "{what}, {loading:?}"
            );
            assert!(!r.pages[0].no_text, "{what}");
        }
    }
    // Inherited resources that define the font are used as they are.
    let doc = pdf(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 /Resources << /Font << /F1 5 0 R >> >> >>"
            .to_vec(),
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R >>".to_vec(),
        stream("", b"BT /F1 12 Tf 72 700 Td (inherited) Tj ET"),
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Courier >>".to_vec(),
    ]);
    let r = rpdf::read(
        &Source::from_bytes(doc, "inherited.pdf"),
        PageSelection::All,
        &options(),
    )
    .unwrap();
    assert_eq!(r.pages[0].text, "inherited\n");
}
