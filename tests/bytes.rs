//! Byte selections: snapping, validation, clamping and the UTF-8 policies.

mod common;

use common::{unlimited, Input};
use proptest::prelude::*;
use rangeread::{ByteSelection, Error, Reader, Snap, Utf8Policy};

fn is_boundary(bytes: &[u8], i: usize) -> bool {
    i == 0 || i >= bytes.len() || bytes[i] & 0xC0 != 0x80
}

fn read(bytes: &[u8], start: Option<u64>, end: Option<u64>) -> rangeread::ReadResult {
    let input = Input::new(bytes);
    unlimited(64)
        .read(&input.path, ByteSelection::new(start, end))
        .unwrap()
}

fn text_strategy() -> impl Strategy<Value = Vec<u8>> {
    let atom = prop_oneof![
        4 => "[a-z\\n]{1,4}".prop_map(|s| s.into_bytes()),
        2 => Just("é".as_bytes().to_vec()),
        2 => Just("日".as_bytes().to_vec()),
        2 => Just("🎉".as_bytes().to_vec()),
        1 => any::<u8>().prop_map(|b| vec![b]),
        1 => Just(vec![0x80, 0x80, 0x80, 0x80]),
    ];
    prop::collection::vec(atom, 0..30).prop_map(|v| v.concat())
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn snapping_contract(bytes in text_strategy(), a in 0u64..130, b in 0u64..130) {
        let len = bytes.len() as u64;
        let (start, end) = (a.min(b).min(len), a.max(b));
        let input = Input::new(&bytes);
        for backend in input.backends() {
            let mut doc = unlimited(backend.block).document(backend.source);
            let r = doc.read(ByteSelection::new(Some(start), Some(end))).unwrap();
            let (s, e) = (r.bytes.start, r.bytes.end);
            let req_end = end.min(len);
            // Actual contains requested, each side moved at most 3 bytes.
            prop_assert!(s <= start && e >= req_end);
            prop_assert!(start - s <= 3 && e - req_end <= 3);
            prop_assert_eq!(r.adjustments.start_adjusted, s != start);
            prop_assert_eq!(r.adjustments.end_adjusted, e != req_end);
            prop_assert_eq!(r.adjustments.end_clamped, end > len);
            // Each side is a boundary, or did not move (malformed data).
            prop_assert!(is_boundary(&bytes, s as usize) || s == start);
            prop_assert!(is_boundary(&bytes, e as usize) || e == req_end);
            // Content is the lossy decode of the actual range; raw bytes are exact.
            let range = &bytes[s as usize..e as usize];
            prop_assert_eq!(&r.content, &String::from_utf8_lossy(range).into_owned());
            prop_assert_eq!(r.raw_bytes(), range);
            prop_assert_eq!(r.invalid_utf8.is_some(), std::str::from_utf8(range).is_err());
            // Strict mode errors exactly when the range holds an invalid sequence.
            let strict = unlimited(64).utf8_policy(Utf8Policy::Strict)
                .read(&input.path, ByteSelection::new(Some(start), Some(end)));
            match std::str::from_utf8(range) {
                Ok(_) => prop_assert!(strict.is_ok()),
                Err(err) => match strict {
                    Err(Error::InvalidUtf8 { offset }) => {
                        prop_assert_eq!(offset, (s + err.valid_up_to() as u64) as i64)
                    }
                    other => prop_assert!(false, "strict gave {:?}", other),
                },
            }
        }
    }

    #[test]
    fn valid_utf8_snaps_to_char_boundaries(s in "[a-zé日🎉\\n]{0,40}", a in 0usize..200, b in 0usize..200) {
        let bytes = s.as_bytes();
        let (start, end) = (a.min(b).min(bytes.len()), a.max(b));
        let r = read(bytes, Some(start as u64), Some(end as u64));
        prop_assert!(s.is_char_boundary(r.bytes.start as usize));
        prop_assert!(s.is_char_boundary(r.bytes.end as usize));
        prop_assert!(r.invalid_utf8.is_none());
    }
}

#[test]
fn start_beyond_the_size_is_an_error() {
    let input = Input::new(b"0123456789");
    let err = unlimited(64)
        .read(&input.path, ByteSelection::from(11..20))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Invalid range specified: start_byte (11) is beyond the end of the file (10 bytes)."
    );
}

#[test]
fn end_beyond_the_size_is_clamped_and_reported() {
    let r = read(b"0123456789", Some(5), Some(4000));
    assert_eq!(r.content, "56789");
    assert!(r.adjustments.end_clamped);
    assert!(!r.adjustments.end_adjusted);
    assert_eq!(r.requested.bytes.map(|b| (b.start, b.end)), Some((5, 4000)));
}

#[test]
fn start_greater_than_end_is_an_error() {
    let input = Input::new(&vec![b'a'; 6000]);
    let err = unlimited(64)
        .read(&input.path, ByteSelection::new(Some(5000), Some(4000)))
        .unwrap_err();
    assert_eq!(
        err.to_string(),
        "Invalid range specified: start_byte (5000) is greater than end_byte (4000)."
    );
}

#[test]
fn start_equal_to_end_on_a_boundary_is_empty() {
    let r = read(b"abcdef", Some(3), Some(3));
    assert_eq!(r.content, "");
    assert_eq!((r.bytes.start, r.bytes.end), (3, 3));
}

#[test]
fn start_equal_to_end_inside_a_character_widens_to_it() {
    let r = read("a日b".as_bytes(), Some(2), Some(2));
    assert_eq!(r.content, "日");
    assert!(r.adjustments.start_adjusted && r.adjustments.end_adjusted);
}

#[test]
fn start_equal_to_size_is_valid_and_empty() {
    let r = read(b"abc", Some(3), None);
    assert_eq!(r.content, "");
    assert_eq!(r.bytes.start, 3);
}

#[test]
fn empty_file_reads_empty() {
    let r = read(b"", None, None);
    assert_eq!(r.content, "");
    assert_eq!(r.file_size, 0);
    assert!(!r.is_partial);
}

#[test]
fn ranges_inside_two_three_and_four_byte_characters_snap_outward() {
    for (ch, len) in [("é", 2u64), ("日", 3), ("🎉", 4)] {
        let text = format!("ab{ch}cd");
        for inner in 1..len {
            let r = read(text.as_bytes(), Some(2 + inner), Some(2 + inner + 1));
            assert_eq!(r.content, ch, "{ch} start inside at +{inner}");
            let r = read(text.as_bytes(), Some(0), Some(2 + inner));
            assert_eq!(r.content, format!("ab{ch}"), "{ch} end inside at +{inner}");
            assert!(r.adjustments.end_adjusted);
        }
    }
}

#[test]
fn range_across_malformed_utf8_is_lossy_by_default_and_reported() {
    let bytes = b"ok \xff\xfe then \xc3 end";
    let r = read(bytes, Some(1), None);
    assert_eq!(r.content, "k \u{fffd}\u{fffd} then \u{fffd} end");
    let inv = r.invalid_utf8.unwrap();
    assert_eq!(inv.count, 3);
    assert_eq!(inv.first_offset, 3);
    let input = Input::new(bytes);
    let err = unlimited(64)
        .utf8_policy(Utf8Policy::Strict)
        .read(&input.path, ByteSelection::new(Some(1), None))
        .unwrap_err();
    assert_eq!(err.to_string(), "Invalid UTF-8 at byte 3");
}

#[test]
fn continuation_bytes_without_a_lead_stop_the_snapping() {
    let bytes = b"ab\x80\x80\x80\x80\x80cd";
    // Backwards from 5, three continuation bytes reach no boundary: the start stays.
    // Forwards from 6, `c` at 7 is a boundary within 3 bytes: the end moves there.
    let r = read(bytes, Some(5), Some(6));
    assert_eq!((r.bytes.start, r.bytes.end), (5, 7));
    assert!(!r.adjustments.start_adjusted && r.adjustments.end_adjusted);
}

#[test]
fn negative_and_non_integer_json_values_fail_naming_the_field() {
    let cases = [
        (r#"{"start_byte": -1}"#, "start_byte"),
        (r#"{"end_byte": -10}"#, "end_byte"),
        (r#"{"start_byte": 1.5}"#, "start_byte"),
        (r#"{"end_byte": "ten"}"#, "end_byte"),
        (r#"{"start_byte": true}"#, "start_byte"),
    ];
    for (json, field) in cases {
        let err = serde_json::from_str::<ByteSelection>(json).unwrap_err();
        assert!(
            err.to_string()
                .starts_with(&format!("Invalid {field}: expected a non-negative integer")),
            "{json}: {err}"
        );
    }
    let ok: ByteSelection = serde_json::from_str(r#"{"start_byte": 3, "end_byte": "9"}"#).unwrap();
    assert_eq!((ok.start, ok.end), (Some(3), Some(9)));
}

#[test]
fn snap_line_widens_to_whole_lines() {
    let input = Input::new(b"first\nsecond line\nthird\n");
    let r = unlimited(64)
        .read(
            &input.path,
            ByteSelection::new(Some(8), Some(10)).snap(Snap::Line),
        )
        .unwrap();
    assert_eq!(r.content, "second line\n");
    assert!(r.adjustments.start_adjusted && r.adjustments.end_adjusted);
    let r = unlimited(64)
        .read(
            &input.path,
            ByteSelection::new(Some(6), Some(18)).snap(Snap::Line),
        )
        .unwrap();
    assert_eq!(r.content, "second line\n");
    assert!(!r.adjustments.start_adjusted && !r.adjustments.end_adjusted);
}

#[test]
fn byte_budget_pages_on_char_boundaries_and_covers_the_file() {
    let text: String = (0..500).map(|i| format!("{i} é日🎉\n")).collect();
    let input = Input::new(text.as_bytes());
    let reader = Reader::new().max_bytes(97);
    let mut next = Some(0u64);
    let mut all = Vec::new();
    let mut pages = 0;
    while let Some(start) = next {
        let r = reader
            .read(&input.path, ByteSelection::new(Some(start), None))
            .unwrap();
        assert!(r.invalid_utf8.is_none(), "a page split a character");
        assert!(r.raw_bytes().len() <= 97);
        all.extend_from_slice(r.raw_bytes());
        next = r.truncated.map(|t| t.next_start_byte);
        pages += 1;
    }
    assert_eq!(all, text.as_bytes());
    assert!(pages > 10);
}

#[test]
fn line_numbers_of_a_byte_range_when_the_index_is_built_or_asked() {
    let input = Input::new(b"a\nbb\nccc\ndddd\n");
    let r = unlimited(64)
        .read(&input.path, ByteSelection::from(3..7))
        .unwrap();
    assert_eq!(r.total_lines, None, "no index built, not asked: no scan");
    let r = unlimited(64)
        .totals(rangeread::Totals::Always)
        .read(&input.path, ByteSelection::from(3..7))
        .unwrap();
    assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((2, 3)));
    assert_eq!(r.total_lines, Some(4));
    // A document whose index is complete reports them for free.
    let mut doc = unlimited(64).open(&input.path).unwrap();
    doc.total_lines().unwrap();
    let r = doc.read(ByteSelection::new(Some(9), None)).unwrap();
    assert_eq!(r.lines.map(|l| (l.start, l.end)), Some((4, 4)));
    assert_eq!(r.percent_of_file, 35.7);
    assert!(r.is_partial);
}

#[test]
fn file_that_grows_or_shrinks_during_reads_is_detected() {
    let input = Input::new(b"0123456789\n");
    let mut doc = unlimited(64).open(&input.path).unwrap();
    assert_eq!(doc.read(ByteSelection::from(2..5)).unwrap().content, "234");
    std::fs::write(&input.path, b"0123").unwrap();
    assert!(matches!(
        doc.read(ByteSelection::from(2..5)),
        Err(Error::Changed { .. })
    ));
    // A fresh one-shot read sees the new state.
    assert_eq!(
        unlimited(64)
            .read(&input.path, ByteSelection::from(2..5))
            .unwrap()
            .content,
        "23"
    );
    let mut doc = unlimited(64).open(&input.path).unwrap();
    let mut f = std::fs::OpenOptions::new()
        .append(true)
        .open(&input.path)
        .unwrap();
    std::io::Write::write_all(&mut f, b"4567").unwrap();
    assert!(matches!(
        doc.read(ByteSelection::from(0..2)),
        Err(Error::Changed { .. })
    ));
}
