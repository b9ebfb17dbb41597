//! Images read for a model: real photos, a screenshot, a logo, a wallpaper and an
//! animated GIF from Debian and PyPI packages (tests/documents/SOURCES.md), every provider
//! preset, crops, and hostile headers.

mod documents;

use std::time::{Duration, Instant};

use documents::{fixture, png, zlib_zeros};
use rangeread::images::{self, ImagePolicy, ImageRead, ImageRequest, ImageStep, Size};
use rangeread::{DocumentRead, DocumentRequest, Error, ErrorKind, Reader, Source};

fn read(path: &std::path::Path, request: ImageRequest) -> Result<ImageRead, Error> {
    match Reader::new().read_document(path, &DocumentRequest::new().image(request))? {
        DocumentRead::Image(i) => Ok(i),
        other => panic!("{} read as {other:?}", path.display()),
    }
}

/// What the sent bytes are, by their own header (the same probe a read makes).
#[cfg(feature = "images")]
fn probe_sent(r: &ImageRead) -> (String, Size) {
    documents::probe_bytes(&r.data)
}

#[cfg(feature = "images")]
const PRESETS: [fn() -> ImagePolicy; 4] = [
    ImagePolicy::anthropic,
    ImagePolicy::claude_code,
    ImagePolicy::openai,
    ImagePolicy::gemini,
];

#[cfg(feature = "images")]
#[test]
fn every_preset_keeps_real_images_inside_its_published_limits() {
    let Some(_) = fixture("") else { return };
    for name in [
        "photo.jpg",
        "screenshot.jpg",
        "logo.png",
        "wallpaper.webp",
        "animated.gif",
    ] {
        let path = fixture(name).unwrap();
        for preset in PRESETS {
            let policy = preset();
            let r = read(&path, ImageRequest::new(policy.clone())).unwrap();
            let what = format!("{name} under {}", policy.name);
            let (mime, size) = probe_sent(&r);
            assert_eq!((mime.as_str(), size), (r.mime.as_str(), r.sent), "{what}");
            documents::assert_within(&policy, size, r.bytes, &what);
            assert_eq!(r.bytes, r.data.len() as u64);
            assert_eq!(r.tokens, policy.tokens.estimate(r.sent), "{what}");
            // The scale maps the sent image's far corner back to the original's.
            let (x, y) = r.to_original(f64::from(r.sent.width), f64::from(r.sent.height));
            assert!(
                (x - f64::from(r.original.width)).abs() <= 1.0 + r.scale,
                "{what}: {x}"
            );
            assert!(
                (y - f64::from(r.original.height)).abs() <= 1.0 + r.scale,
                "{what}: {y}"
            );
            let ratio = |s: Size| f64::from(s.width) / f64::from(s.height);
            assert!(
                (ratio(r.sent) / ratio(r.original) - 1.0).abs() < 0.02,
                "{what}"
            );
        }
    }
}

#[test]
fn an_image_that_fits_is_sent_as_its_own_bytes() {
    let Some(path) = fixture("screenshot.jpg") else {
        return;
    };
    // 1920x1080 is within OpenAI's 2048 long edge but over its 768 short edge; Gemini
    // takes it whole.
    let r = read(&path, ImageRequest::new(ImagePolicy::gemini())).unwrap();
    assert_eq!(r.steps, [ImageStep::AsIs]);
    assert_eq!(r.data, std::fs::read(&path).unwrap());
    assert_eq!(
        (r.original, r.sent),
        (
            Size {
                width: 1920,
                height: 1080
            },
            r.original
        )
    );
    assert_eq!(r.scale, 1.0);
    assert_eq!(r.mime, "image/jpeg");
    assert!(r
        .note()
        .starts_with("[Image: original 1920x1080, sent 1920x1080 image/jpeg"));
}

#[cfg(feature = "images")]
#[test]
fn a_downscaled_image_reports_the_scale_that_maps_coordinates_back() {
    let Some(path) = fixture("wallpaper.webp") else {
        return;
    };
    let r = read(&path, ImageRequest::new(ImagePolicy::claude_code())).unwrap();
    assert_eq!(
        r.original,
        Size {
            width: 4096,
            height: 4096
        }
    );
    assert_eq!(
        r.sent,
        Size {
            width: 2000,
            height: 2000
        }
    );
    assert_eq!(r.scale, 2.048);
    assert!(r.steps.contains(&ImageStep::Downscaled));
    assert!(
        r.note().contains("multiply coordinates by 2.048"),
        "{}",
        r.note()
    );
    assert_eq!(r.tokens, 72 * 72);
}

#[cfg(feature = "images")]
#[test]
fn a_crop_is_in_original_coordinates() {
    let Some(path) = fixture("photo.jpg") else {
        return;
    };
    let crop = "1000,500,1000,572".parse().unwrap();
    let r = read(&path, ImageRequest::default().crop(crop)).unwrap();
    assert_eq!(r.crop, Some(crop));
    assert_eq!(
        r.region(),
        Size {
            width: 1000,
            height: 572
        }
    );
    assert_eq!(
        r.sent,
        r.region(),
        "the crop fits the Anthropic limits as it is"
    );
    assert_eq!(r.to_original(0.0, 0.0), (1000.0, 500.0));
    assert_eq!(r.to_original(1000.0, 572.0), (2000.0, 1072.0));
    // A crop running past the edge is clamped; one outside is refused.
    let r = read(
        &path,
        ImageRequest::default().crop("1900,1000,500,500".parse().unwrap()),
    )
    .unwrap();
    assert_eq!(
        r.region(),
        Size {
            width: 100,
            height: 72
        }
    );
    let e = read(
        &path,
        ImageRequest::default().crop("2000,0,5,5".parse().unwrap()),
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("outside the image (2000x1072)"),
        "{e}"
    );
}

#[cfg(feature = "images")]
#[test]
fn a_gif_is_sent_as_its_first_frame() {
    let Some(path) = fixture("animated.gif") else {
        return;
    };
    let r = read(&path, ImageRequest::default()).unwrap();
    assert_eq!(r.mime, "image/png");
    assert_eq!(r.steps[0], ImageStep::FirstFrame);
    assert!(r.note().contains("first frame of the GIF"));
}

#[cfg(feature = "images")]
#[test]
fn a_truncated_png_is_a_clear_error_when_it_must_be_decoded() {
    let Some(path) = fixture("truncated.png") else {
        return;
    };
    let e = read(
        &path,
        ImageRequest::default().crop("0,0,100,100".parse().unwrap()),
    )
    .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidImage);
    assert!(e.to_string().contains("may be truncated or corrupt"), "{e}");
}

#[cfg(not(feature = "images"))]
#[test]
fn without_the_feature_an_oversized_image_says_which_feature_downscales() {
    let Some(path) = fixture("wallpaper.webp") else {
        return;
    };
    let e = read(&path, ImageRequest::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::FeatureDisabled);
    assert!(e.to_string().contains("--features images"), "{e}");
}

#[test]
fn a_header_claiming_absurd_dimensions_is_refused_before_any_decode() {
    // 100000x100000 pixels of zeros: 10 gigapixels behind a 1 GiB deflate stream.
    let bomb = png(100_000, 100_000, &zlib_zeros(1 << 30));
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("bomb.png");
    std::fs::write(&path, &bomb).unwrap();
    let t = Instant::now();
    let e = read(&path, ImageRequest::default()).unwrap_err();
    assert!(t.elapsed() < Duration::from_secs(2), "{:?}", t.elapsed());
    assert_eq!(e.kind(), ErrorKind::ImageTooLarge);
    assert!(
        e.to_string()
            .contains("claims 100000x100000 pixels (10000.0 MP)"),
        "{e}"
    );
}

#[cfg(feature = "images")]
#[test]
fn a_png_bomb_within_the_pixel_limit_decodes_bounded_and_fits() {
    // 10000x10000 gray zeros: 100 MP (the default limit), a 100 KB file.
    let row = 10_001u64; // a filter byte per row
    let bomb = png(10_000, 10_000, &zlib_zeros(row * 10_000));
    let src = Source::from_bytes(bomb, "bomb.png");
    let t = Instant::now();
    let r = images::read(&src, "image/png", &ImageRequest::default()).unwrap();
    assert!(t.elapsed() < Duration::from_secs(60), "{:?}", t.elapsed());
    assert_eq!(
        r.sent,
        Size {
            width: 1072,
            height: 1072
        }
    );
    // One pixel more than the limit is refused without decoding.
    let over = png(10_001, 10_000, &zlib_zeros(1 << 20));
    let src = Source::from_bytes(over, "over.png");
    let e = images::read(&src, "image/png", &ImageRequest::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::ImageTooLarge);
}

#[test]
fn an_empty_or_cut_header_is_an_invalid_image() {
    let src = Source::from_bytes(b"\x89PNG\r\n\x1a\n\0\0".to_vec(), "cut.png");
    let e = images::read(&src, "image/png", &ImageRequest::default()).unwrap_err();
    assert_eq!(e.kind(), ErrorKind::InvalidImage);
    assert!(e.to_string().contains("header"), "{e}");
}

#[test]
fn images_go_through_the_workspace() {
    let Some(path) = fixture("screenshot.jpg") else {
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    std::fs::copy(&path, dir.path().join("shot.jpg")).unwrap();
    std::fs::create_dir(dir.path().join("secret")).unwrap();
    std::fs::copy(&path, dir.path().join("secret/shot.jpg")).unwrap();
    let ws = rangeread::Workspace::builder(dir.path())
        .protect("secret/")
        .build()
        .unwrap();
    let req = DocumentRequest::new();
    let r = Reader::new()
        .read_document_in(&ws, "shot.jpg", &req)
        .unwrap();
    let DocumentRead::Image(img) = r else {
        panic!()
    };
    assert_eq!(img.path, "shot.jpg");
    assert!(img.resolved_path.ends_with("shot.jpg") && img.resolved_path.starts_with('/'));
    let e = Reader::new()
        .read_document_in(&ws, "secret/shot.jpg", &req)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::Protected);
    let e = Reader::new()
        .read_document_in(&ws, "../x.jpg", &req)
        .unwrap_err();
    assert_eq!(e.kind(), ErrorKind::OutsideWorkspace);
}

#[test]
fn svg_is_text() {
    let svg =
        b"<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"10\" height=\"10\"><rect/></svg>\n";
    let mut doc = Reader::new().document(Source::from_bytes(svg.to_vec(), "a.svg"));
    let r = Reader::new()
        .read_document_from(&mut doc, &DocumentRequest::new())
        .unwrap();
    let DocumentRead::Text(t) = r else {
        panic!("{r:?}")
    };
    assert_eq!(t.content.as_bytes(), svg);
}
