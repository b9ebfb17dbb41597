//! What three real hosts (rust-mcp-filesystem, forge's `forge_fs`, agentwerk) needed when
//! their read code became wrappers over `Reader` (issue 38, docs/embedding.md): a "NUL
//! means binary" detection, error kinds a host can act on with their values, an empty
//! answer past the end, the size of a binary file, the range checked before the file,
//! and `total_lines` that is there whenever the read counted.

use rangeread::{
    ByteSelection, Detection, Error, ErrorKind, LineSelection, PastEnd, Reader, Totals, Workspace,
};
use std::path::PathBuf;

fn dir_with(files: &[(&str, &[u8])]) -> (tempfile::TempDir, PathBuf) {
    let dir = tempfile::tempdir().unwrap();
    for (name, data) in files {
        std::fs::write(dir.path().join(name), data).unwrap();
    }
    let root = dir.path().to_path_buf();
    (dir, root)
}

fn utf16le(text: &str) -> Vec<u8> {
    text.encode_utf16().flat_map(u16::to_le_bytes).collect()
}

const PNG: &[u8] = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x04\0\0\0\x04\x08\x06\0\0\0";

#[test]
fn a_short_blob_with_one_zero_byte_is_binary_not_utf16() {
    let (_d, root) = dir_with(&[("blob", b"\x7f\x45\x00\x01\x02"), ("hi", b"h\0i\0\n\0")]);
    for name in ["blob", "hi"] {
        let err = Reader::new()
            .read(root.join(name), LineSelection::head(1))
            .unwrap_err();
        assert!(
            matches!(&err, Error::Binary { mime, file_size, .. } if mime == "application/octet-stream" && *file_size > 0),
            "{name}: {err}"
        );
    }
}

#[test]
fn nul_means_binary_refuses_utf16_without_a_mark_and_keeps_it_with_one() {
    let text = "a UTF-16 file without a byte order mark\nsecond line\n";
    let mut marked = vec![0xFF, 0xFE];
    marked.extend(utf16le(text));
    let (_d, root) = dir_with(&[("bare.txt", &utf16le(text)), ("marked.txt", &marked)]);

    // Auto still reads a long enough BOM-less UTF-16 sample as text.
    let auto = Reader::new()
        .read(root.join("bare.txt"), LineSelection::head(1))
        .unwrap();
    assert_eq!(auto.encoding, "utf-16le");
    assert_eq!(auto.content, "a UTF-16 file without a byte order mark\n");

    let strict = Reader::new().detection(Detection::NulMeansBinary);
    let err = strict
        .read(root.join("bare.txt"), LineSelection::head(1))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Binary);
    let ok = strict
        .read(root.join("marked.txt"), LineSelection::head(1))
        .unwrap();
    assert_eq!(ok.content, "a UTF-16 file without a byte order mark\n");
}

#[test]
fn each_range_error_has_its_own_kind_and_carries_its_values() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sample.txt");
    let r = Reader::new();
    let err = |sel: rangeread::Selection| r.read(sample, sel).unwrap_err();

    let e = err(LineSelection::range(Some(0), Some(7)).into());
    assert_eq!(
        (e.kind(), e.kind().as_str()),
        (ErrorKind::ZeroLine, "zero_line")
    );
    assert!(matches!(
        e,
        Error::ZeroLine {
            field: "start_line",
            start: Some(0),
            end: Some(7)
        }
    ));
    let e = err(LineSelection::range(Some(3), Some(0)).into());
    assert!(matches!(
        e,
        Error::ZeroLine {
            field: "end_line",
            start: Some(3),
            end: Some(0)
        }
    ));
    let e = "0:9".parse::<LineSelection>().unwrap_err();
    assert!(
        matches!(
            e,
            Error::ZeroLine {
                start: Some(0),
                end: Some(9),
                ..
            }
        ),
        "{e:?}"
    );

    let e = err(LineSelection::range(Some(9), Some(3)).into());
    assert_eq!(e.kind().as_str(), "start_after_end");
    assert!(matches!(
        e,
        Error::LineStartAfterEnd {
            start: 9,
            end: 3,
            ..
        }
    ));
    assert_eq!(e.parameter(), Some("start_line"));
    let e = err(ByteSelection::new(Some(50), Some(40)).into());
    assert_eq!(e.kind(), ErrorKind::StartAfterEnd);

    let e = err(LineSelection::range(Some(61), None).into());
    assert_eq!(e.kind().as_str(), "beyond_end");
    assert!(matches!(
        e,
        Error::LineBeyondEnd {
            start: 61,
            total_lines: 60,
            ..
        }
    ));
    assert_eq!(e.values()["total_lines"], 60);
    assert_eq!(e.parameter(), Some("start_line"));
    let e = err(ByteSelection::new(Some(4000), None).into());
    assert_eq!(e.kind(), ErrorKind::BeyondEnd);
    assert!(matches!(
        e,
        Error::ByteBeyondEnd {
            start: 4000,
            file_size: 3228,
            ..
        }
    ));
    assert_eq!(e.parameter(), Some("start_byte"));
    // A parse error is still `invalid_range`; every range kind says so to a host that
    // maps them onto one.
    let e = "x:y".parse::<LineSelection>().unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidRange);
    for k in [
        ErrorKind::InvalidRange,
        ErrorKind::ZeroLine,
        ErrorKind::StartAfterEnd,
        ErrorKind::BeyondEnd,
    ] {
        assert!(k.is_range(), "{k}");
    }
    assert!(!ErrorKind::Binary.is_range());
}

#[test]
fn past_end_empty_answers_an_empty_result_for_lines_and_bytes() {
    let ws = Workspace::new(concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data")).unwrap();
    let reader = Reader::new().past_end(PastEnd::Empty);
    for sel in [
        LineSelection::range(Some(61), Some(70)),
        LineSelection::offset_limit(100, Some(5)),
        LineSelection::range(Some(500), None),
    ] {
        let r = reader.read_in(&ws, "sample.txt", sel).unwrap();
        assert_eq!(r.content, "", "{sel:?}");
        assert_eq!(r.lines, None);
        assert_eq!(r.total_lines, Some(60));
        assert_eq!((r.bytes.start, r.bytes.end), (3228, 3228));
        assert!(r.adjustments.end_clamped);
        assert!(r.truncated.is_none());
        assert_eq!(
            r.requested.lines.map(|l| l.start),
            Some(match sel {
                LineSelection::OffsetLimit { offset, .. } => offset as i64,
                LineSelection::Range { start, .. } => start.unwrap(),
                _ => unreachable!(),
            })
        );
    }
    let r = reader
        .read_in(
            &ws,
            "sample.txt",
            ByteSelection::new(Some(5000), Some(6000)),
        )
        .unwrap();
    assert_eq!(
        (r.content.as_str(), r.bytes.start, r.bytes.end),
        ("", 3228, 3228)
    );
    assert_eq!(
        r.requested.bytes.map(|b| (b.start, b.end)),
        Some((5000, 6000))
    );

    // Malformed ranges stay errors; the default stays the contract's error.
    let e = reader
        .read_in(&ws, "sample.txt", LineSelection::range(Some(9), Some(3)))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::StartAfterEnd);
    let e = Reader::new()
        .read_in(&ws, "sample.txt", LineSelection::range(Some(61), None))
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::BeyondEnd);
}

#[test]
fn a_binary_error_carries_the_path_and_the_file_size() {
    let (_d, root) = dir_with(&[("shot.png", PNG)]);
    let path = root.join("shot.png");
    let err = Reader::new()
        .read(&path, LineSelection::head(1))
        .unwrap_err();
    assert!(
        matches!(&err, Error::Binary { mime, file_size, .. } if mime == "image/png" && *file_size == PNG.len() as i64),
        "{err:?}"
    );
    assert_eq!(err.path(), Some(path.as_path()));
    // Inside a workspace: the path as the caller gave it, relative to the root.
    let ws = Workspace::new(&root).unwrap();
    let err = Reader::new()
        .read_in(&ws, "shot.png", LineSelection::head(1))
        .unwrap_err();
    assert_eq!(err.kind(), ErrorKind::Binary);
    assert_eq!(err.path(), Some(std::path::Path::new("shot.png")));
}

#[test]
fn the_range_is_checked_before_the_file_is_classified() {
    let (_d, root) = dir_with(&[("shot.png", PNG)]);
    let ws = Workspace::new(&root).unwrap();
    let r = Reader::new();
    let png = root.join("shot.png");
    let kind = |e: Error| e.kind();
    assert_eq!(
        kind(
            r.read(&png, LineSelection::range(Some(0), Some(3)))
                .unwrap_err()
        ),
        ErrorKind::ZeroLine
    );
    assert_eq!(
        kind(
            r.read_in(&ws, "shot.png", LineSelection::range(Some(5), Some(2)))
                .unwrap_err()
        ),
        ErrorKind::StartAfterEnd
    );
    assert_eq!(
        kind(
            r.read(&png, ByteSelection::new(Some(9), Some(3)))
                .unwrap_err()
        ),
        ErrorKind::StartAfterEnd
    );
    // Through an open document too.
    let mut doc = r.document(rangeread::Source::from_bytes(PNG.to_vec(), "shot.png"));
    assert_eq!(
        kind(
            doc.read(LineSelection::offset_limit(0, Some(2)))
                .unwrap_err()
        ),
        ErrorKind::ZeroLine
    );
    // A good range on the PNG is refused as binary.
    assert_eq!(
        kind(r.read(&png, LineSelection::head(1)).unwrap_err()),
        ErrorKind::Binary
    );
}

#[test]
fn total_lines_is_there_whenever_the_read_counted() {
    let sample = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/data/sample.txt");
    // A line read of the whole file counts every line, whatever `Totals` says.
    for totals in [Totals::Auto, Totals::IfKnown, Totals::Always] {
        let r = Reader::new()
            .totals(totals)
            .read(sample, LineSelection::from(..))
            .unwrap();
        assert_eq!(r.total_lines, Some(60), "{totals:?}");
    }
    // Under Always, every selection reports it.
    let always = Reader::new().totals(Totals::Always);
    for sel in [
        rangeread::Selection::from(LineSelection::head(3)),
        LineSelection::tail(3).into(),
        LineSelection::from(10..=12).into(),
        LineSelection::around(30, 2).into(),
        ByteSelection::new(Some(100), Some(200)).into(),
        ByteSelection::new(Some(3000), None).into(),
    ] {
        assert_eq!(
            always.read(sample, sel).unwrap().total_lines,
            Some(60),
            "{sel:?}"
        );
    }
    // Under Auto, every line selection does.
    for sel in [
        LineSelection::head(3),
        LineSelection::tail(3),
        LineSelection::from(10..=12),
    ] {
        assert_eq!(
            Reader::new().read(sample, sel).unwrap().total_lines,
            Some(60)
        );
    }
}
