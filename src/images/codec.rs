//! Decoding, cropping, downscaling and re-encoding (feature `images`): the `image` crate
//! with only its PNG, JPEG, GIF and WebP codecs, its decode limits set from the size the
//! header announced, so a file whose data would decode to more is stopped by the decoder.

use std::io::Cursor;

use image::codecs::jpeg::JpegEncoder;
use image::imageops::FilterType;
use image::{DynamicImage, ImageReader, Limits, RgbImage};

use super::{Changed, Crop, ImageFormat, ImagePolicy, ImageStep, Size};

/// How much smaller each round makes an image that still does not fit the byte limit.
const SHRINK: f64 = 0.75;

/// At most this many rounds of shrinking (0.75^12 is 3% of the side).
const ROUNDS: usize = 12;

/// Decodes `data`, crops, downscales to `target` and encodes until the policy's byte
/// limit is met. Errors are the decoder's or encoder's words.
pub(super) fn transform(
    data: &[u8],
    format: ImageFormat,
    original: Size,
    crop: Option<Crop>,
    target: Size,
    policy: &ImagePolicy,
) -> Result<Changed, String> {
    let mut steps = Vec::new();
    let mut img = decode(data, format, original)?;
    if format == ImageFormat::Gif {
        steps.push(ImageStep::FirstFrame);
    }
    if let Some(c) = crop {
        img = img.crop_imm(c.x, c.y, c.width, c.height);
        steps.push(ImageStep::Cropped);
    }
    let mut size = target;
    if (img.width(), img.height()) != (size.width, size.height) {
        img = img.resize_exact(size.width, size.height, FilterType::Triangle);
        steps.push(ImageStep::Downscaled);
    }
    steps.push(ImageStep::Reencoded);
    let lossless_first = matches!(format, ImageFormat::Png | ImageFormat::Gif);
    for round in 0..=ROUNDS {
        if round > 0 {
            size = Size {
                width: ((f64::from(size.width) * SHRINK) as u32).max(1),
                height: ((f64::from(size.height) * SHRINK) as u32).max(1),
            };
            img = img.resize_exact(size.width, size.height, FilterType::Triangle);
            if !steps.contains(&ImageStep::Downscaled) {
                steps.insert(steps.len() - 1, ImageStep::Downscaled);
            }
        }
        if lossless_first {
            let png = png(&img)?;
            if policy.fits_bytes(png.len() as u64) {
                return Ok((png, size, "image/png".into(), steps));
            }
        }
        let rgb = flatten(&img);
        for &q in &policy.jpeg_qualities {
            let jpeg = jpeg(&rgb, q)?;
            if policy.fits_bytes(jpeg.len() as u64) {
                return Ok((jpeg, size, "image/jpeg".into(), steps));
            }
        }
        if size.width == 1 && size.height == 1 {
            break;
        }
    }
    Err(format!(
        "no encoding fits the byte limit of the {} policy ({})",
        policy.name,
        policy.describe()
    ))
}

/// Decodes the first frame, allowing no more pixels than the header announced (and the
/// memory they need).
fn decode(data: &[u8], format: ImageFormat, size: Size) -> Result<DynamicImage, String> {
    let mut reader = ImageReader::new(Cursor::new(data));
    reader.set_format(match format {
        ImageFormat::Png => image::ImageFormat::Png,
        ImageFormat::Jpeg => image::ImageFormat::Jpeg,
        ImageFormat::Gif => image::ImageFormat::Gif,
        ImageFormat::Webp => image::ImageFormat::WebP,
    });
    let mut limits = Limits::default();
    limits.max_image_width = Some(size.width);
    limits.max_image_height = Some(size.height);
    // 16-bit RGBA at the announced size, plus the decoders' own buffers.
    limits.max_alloc = Some(size.pixels().saturating_mul(8).saturating_add(64 << 20));
    reader.limits(limits);
    reader.decode().map_err(|e| e.to_string())
}

fn png(img: &DynamicImage) -> Result<Vec<u8>, String> {
    let mut out = Cursor::new(Vec::new());
    img.write_to(&mut out, image::ImageFormat::Png)
        .map_err(|e| e.to_string())?;
    Ok(out.into_inner())
}

fn jpeg(rgb: &RgbImage, quality: u8) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    JpegEncoder::new_with_quality(&mut out, quality.clamp(1, 100))
        .encode_image(rgb)
        .map_err(|e| e.to_string())?;
    Ok(out)
}

/// RGB with transparency laid over white (JPEG has no alpha; black would hide dark text).
fn flatten(img: &DynamicImage) -> RgbImage {
    if !img.color().has_alpha() {
        return img.to_rgb8();
    }
    let rgba = img.to_rgba8();
    RgbImage::from_fn(rgba.width(), rgba.height(), |x, y| {
        let p = rgba.get_pixel(x, y).0;
        let a = u32::from(p[3]);
        let over = |c: u8| ((u32::from(c) * a + 255 * (255 - a)) / 255) as u8;
        image::Rgb([over(p[0]), over(p[1]), over(p[2])])
    })
}
