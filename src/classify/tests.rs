//! The classifier's own steps, tested on literal samples.

use super::legacy::{legacy_evidence, LEGACY_EVIDENCE_BYTES};
use super::*;

#[test]
fn trims_only_incomplete_tails() {
    assert_eq!(trim_incomplete_utf8("aé".as_bytes()), "aé".as_bytes());
    assert_eq!(trim_incomplete_utf8(b"a\xE2\x82"), b"a");
    assert_eq!(trim_incomplete_utf8(b"a\xF0\x9F\x98"), b"a");
    assert_eq!(
        trim_incomplete_utf8(b"a\xF0\x9F\x98\x80"),
        b"a\xF0\x9F\x98\x80"
    );
    assert_eq!(trim_incomplete_utf8(b"\x80\x80\x80"), b"\x80\x80\x80");
}

#[test]
fn counts_controls() {
    assert_eq!(count_controls(b"a\tb\nc\r\x0c\x1b[0m\x08"), 0);
    assert_eq!(count_controls(b"\x01\x07\x7f\x1f "), 4);
    // Every byte value, at every offset of a block and across blocks' edges.
    for b in 0..=255u8 {
        let expected = usize::from(is_disallowed_control(u32::from(b)));
        for len in [1, 127, 128, 129, 300] {
            let mut s = vec![b'a'; len];
            s[len - 1] = b;
            s[len / 2] = b;
            let times = if len == 1 { 1 } else { 2 };
            assert_eq!(
                count_controls(&s),
                expected * times,
                "byte {b:#04x}, length {len}"
            );
        }
    }
    assert_eq!(count_controls(&[0x01; 1000]), 1000);
}

#[test]
fn straddling_character_is_not_evidence() {
    let mut s = vec![b'a'; SAMPLE_SIZE - 1];
    s.extend_from_slice("é".as_bytes());
    let c = classify(&s);
    assert_eq!(c.encoding(), Some(Encoding::Utf8));
    if let Classification::Text(t) = c {
        assert_eq!(t.confidence, 1.0);
    }
}

#[test]
fn utf16_without_bom() {
    let le: Vec<u8> = "hello\nworld\n"
        .encode_utf16()
        .flat_map(u16::to_le_bytes)
        .collect();
    let be: Vec<u8> = "hello\nworld\n"
        .encode_utf16()
        .flat_map(u16::to_be_bytes)
        .collect();
    assert_eq!(classify(&le).encoding(), Some(Encoding::Utf16Le));
    assert_eq!(classify(&be).encoding(), Some(Encoding::Utf16Be));
    // Little-endian 16-bit integers are not text.
    let ints: Vec<u8> = (0u16..2000).flat_map(|i| (i % 251).to_le_bytes()).collect();
    assert!(!classify(&ints).is_text());
}

#[test]
fn clean_samples_of_binary_kinds_stay_text() {
    let pem = b"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----\n";
    let c = classify(pem);
    assert!(c.is_text());
    assert_eq!(c.mime(), Some("application/x-x509-ca-cert"));
    assert_eq!(
        classify(b"%!PS-Adobe-3.0\n").mime(),
        Some("application/postscript")
    );
}

#[test]
fn legacy_evidence_is_the_words_with_non_ascii_bytes() {
    let html = b"<html><body><p>Caf\xe9 au lait</p>\n<p>na\xefve 42 fa\xe7ade.</p>";
    assert_eq!(legacy_evidence(html), b"Caf\xe9 na\xefve fa\xe7ade ");
    // Bounded, however much non-ASCII text the sample holds.
    let latin = b"d\xe9j\xe0 vu, ".repeat(1000);
    let ev = legacy_evidence(&latin);
    assert!(ev.len() <= LEGACY_EVIDENCE_BYTES + 1, "{}", ev.len());
    assert!(ev.len() >= LEGACY_EVIDENCE_BYTES - 8, "{}", ev.len());
}

#[test]
fn legacy_evidence_cuts_a_long_word_between_characters() {
    // A line of Japanese is one long word; trail bytes 0x40..0x7f look like ASCII.
    let text = "吾輩は猫である。名前はまだ無い。どこで生れたかとんと見当がつかぬ。".repeat(20);
    let (sjis, _, _) = encoding_rs::SHIFT_JIS.encode(&text);
    for skip in [0, 1, 2, 3] {
        // Shifted by ASCII letters, so the cut falls at each parity.
        let mut sample = b"ab"[..skip.min(2)].to_vec();
        sample.extend(std::iter::repeat_n(b'x', skip.saturating_sub(2)));
        sample.extend_from_slice(&sjis);
        let ev = legacy_evidence(&sample);
        assert!(ev.len() <= LEGACY_EVIDENCE_BYTES, "{skip}: {}", ev.len());
        let (decoded, had_errors) = encoding_rs::SHIFT_JIS.decode_without_bom_handling(&ev);
        assert!(!had_errors, "{skip}: {decoded}");
    }
}

#[test]
fn utf8_stats_weighs_a_bounded_prefix() {
    // 60 good characters, then nothing but bad bytes: judged on the first 64.
    let mut s = "é".repeat(60).into_bytes();
    s.extend(std::iter::repeat_n(0xFFu8, 4000));
    let (valid, invalid) = utf8_stats(&s);
    assert_eq!((valid, invalid), (60, 4));
    let s = b"a\xff".repeat(4000);
    assert_eq!(utf8_stats(&s), (0, UTF8_EVIDENCE / 5 + 1));
}
