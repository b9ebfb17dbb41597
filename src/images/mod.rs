//! Images (PNG, JPEG, GIF, WebP, detected by content) read for a model.
//!
//! **What the caller gets:** an [`ImageRead`]: the bytes to send (`data`, with their
//! `mime`), the `original` size and the `sent` size, the `scale` that maps the sent
//! image's coordinates back to the original ([`ImageRead::to_original`]), an estimate of
//! the `tokens` it costs under the [`ImagePolicy`], what was done to it (`steps`), and a
//! one-line text rendering ([`ImageRead::note`]) to send beside the image.
//!
//! How a read goes:
//!
//! 1. The dimensions come from the header without decoding ([`imagesize`]); a header that
//!    claims more than [`ImageRequest::max_decode_pixels`] (100 megapixels by default) is
//!    refused before anything else ([`Error::ImageTooLarge`]).
//! 2. A [`Crop`] (in original coordinates) is clamped to the image.
//! 3. The policy decides: an image that meets its limits (pixels and bytes) is sent as it
//!    is, its bytes untouched, without decoding. Otherwise, with the `images` feature, it
//!    is decoded (the `image` crate, with its decode limits set from the header's size),
//!    cropped, downscaled to fit (aspect ratio kept) and re-encoded: PNG when the
//!    original was PNG or GIF and the result fits, else JPEG at falling qualities, then
//!    smaller, until it fits. A GIF is sent as the PNG of its first frame. Without the
//!    feature, such an image is an [`Error::FeatureDisabled`] that says so.
//!
//! SVG is text (XML) and never reaches this module: reads return it as text.

#[cfg(feature = "images")]
mod codec;
mod policy;
mod probe;

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Serialize};

use crate::error::{escaped, Error, Result};
use crate::source::Source;

pub use policy::{ImagePolicy, TokenRule};

/// The default of [`ImageRequest::max_decode_pixels`]: 100 megapixels.
pub const DEFAULT_MAX_DECODE_PIXELS: u64 = 100_000_000;

/// A width and a height in pixels.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Size {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
}

impl Size {
    /// Width times height.
    pub fn pixels(self) -> u64 {
        u64::from(self.width) * u64::from(self.height)
    }
}

impl fmt::Display for Size {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}x{}", self.width, self.height)
    }
}

/// A rectangle of an image in its original pixel coordinates: `x`, `y` from the top
/// left, 0-indexed; `width` and `height` in pixels (the right and bottom edges are
/// exclusive, as byte ranges are).
///
/// Parses from `"x,y,width,height"`.
///
/// ```
/// let c: rangeread::images::Crop = "10,20,300,200".parse()?;
/// assert_eq!((c.x, c.y, c.width, c.height), (10, 20, 300, 200));
/// # Ok::<(), rangeread::Error>(())
/// ```
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Crop {
    /// The left edge.
    pub x: u32,
    /// The top edge.
    pub y: u32,
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
}

impl FromStr for Crop {
    type Err = Error;

    fn from_str(s: &str) -> Result<Crop> {
        let parts: Vec<_> = s.split(',').map(|p| p.trim().parse::<u32>()).collect();
        match parts[..] {
            [Ok(x), Ok(y), Ok(width), Ok(height)] if width > 0 && height > 0 => Ok(Crop {
                x,
                y,
                width,
                height,
            }),
            _ => Err(Error::selection(format!(
                "Invalid crop {s:?}: give x,y,width,height in pixels of the original \
                 image, e.g. \"0,0,800,600\" (width and height above 0)."
            ))),
        }
    }
}

/// The image formats read by content.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ImageFormat {
    /// PNG.
    Png,
    /// JPEG.
    Jpeg,
    /// GIF (its first frame is what a downscaled read sends).
    Gif,
    /// WebP.
    Webp,
}

impl ImageFormat {
    /// The format of a MIME type from classification (`image/png` ...).
    pub fn from_mime(mime: &str) -> Option<ImageFormat> {
        Some(match mime {
            "image/png" => ImageFormat::Png,
            "image/jpeg" => ImageFormat::Jpeg,
            "image/gif" => ImageFormat::Gif,
            "image/webp" => ImageFormat::Webp,
            _ => return None,
        })
    }

    /// The MIME type.
    pub fn mime(self) -> &'static str {
        match self {
            ImageFormat::Png => "image/png",
            ImageFormat::Jpeg => "image/jpeg",
            ImageFormat::Gif => "image/gif",
            ImageFormat::Webp => "image/webp",
        }
    }

    /// The name in messages (`PNG` ...).
    pub fn name(self) -> &'static str {
        match self {
            ImageFormat::Png => "PNG",
            ImageFormat::Jpeg => "JPEG",
            ImageFormat::Gif => "GIF",
            ImageFormat::Webp => "WebP",
        }
    }
}

/// What a read did to an image, in order.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
#[non_exhaustive]
pub enum ImageStep {
    /// Sent as it is: the file's bytes.
    AsIs,
    /// The first frame of a GIF was taken.
    FirstFrame,
    /// Cut to the crop region.
    Cropped,
    /// Made smaller to fit the policy.
    Downscaled,
    /// Encoded again (PNG or JPEG), to fit the byte limit or after a change.
    Reencoded,
}

/// How to read an image: the policy, an optional crop, and the decode limit.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ImageRequest {
    /// By default [`ImagePolicy::anthropic`].
    pub policy: ImagePolicy,
    /// By default none: the whole image.
    pub crop: Option<Crop>,
    /// By default 100 megapixels ([`DEFAULT_MAX_DECODE_PIXELS`]): an image whose header
    /// claims more is refused without decoding.
    pub max_decode_pixels: u64,
}

impl Default for ImageRequest {
    fn default() -> Self {
        ImageRequest {
            policy: ImagePolicy::default(),
            crop: None,
            max_decode_pixels: DEFAULT_MAX_DECODE_PIXELS,
        }
    }
}

impl ImageRequest {
    /// A request under `policy`, whole image.
    pub fn new(policy: ImagePolicy) -> ImageRequest {
        ImageRequest {
            policy,
            ..ImageRequest::default()
        }
    }

    /// By default none: the whole image is read.
    pub fn crop(mut self, crop: Crop) -> ImageRequest {
        self.crop = Some(crop);
        self
    }

    /// By default 100 megapixels.
    pub fn max_decode_pixels(mut self, pixels: u64) -> ImageRequest {
        self.max_decode_pixels = pixels;
        self
    }
}

/// An image read for a model: what to send and how it relates to the file.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct ImageRead {
    /// The path as the caller spelled it.
    pub path: String,
    /// The path as resolved.
    pub resolved_path: String,
    /// The size of the file in bytes.
    pub file_size: u64,
    /// The format of the file.
    pub format: ImageFormat,
    /// The size of the image in the file.
    pub original: Size,
    /// The region taken, in original coordinates (clamped to the image), if any.
    pub crop: Option<Crop>,
    /// The size of the image sent.
    pub sent: Size,
    /// The MIME type of the bytes sent.
    pub mime: String,
    /// The number of bytes sent (`data.len()`).
    pub bytes: u64,
    /// Original pixels per sent pixel (1 when not downscaled): multiply a coordinate in
    /// the sent image by it (and add the crop's origin) to get the original's.
    pub scale: f64,
    /// The estimated tokens of the sent image under the policy.
    pub tokens: u64,
    /// The policy's name.
    pub policy: String,
    /// What was done, in order (`[as_is]` when nothing).
    pub steps: Vec<ImageStep>,
    /// The bytes to send.
    #[serde(skip)]
    pub data: Vec<u8>,
}

impl ImageRead {
    /// Maps a point of the sent image to the original image's coordinates.
    ///
    /// ```
    /// # use rangeread::images::*;
    /// # fn f(r: &ImageRead) {
    /// let (x, y) = r.to_original(100.0, 50.0);
    /// # }
    /// ```
    pub fn to_original(&self, x: f64, y: f64) -> (f64, f64) {
        let base = self
            .crop
            .map_or((0.0, 0.0), |c| (f64::from(c.x), f64::from(c.y)));
        let region = self.region();
        let sx = f64::from(region.width) / f64::from(self.sent.width.max(1));
        let sy = f64::from(region.height) / f64::from(self.sent.height.max(1));
        (base.0 + x * sx, base.1 + y * sy)
    }

    /// The size of the region sent, in original pixels (the crop, or the whole image).
    pub fn region(&self) -> Size {
        self.crop.map_or(self.original, |c| Size {
            width: c.width,
            height: c.height,
        })
    }

    /// The bytes as base64 (standard alphabet, padded), as APIs take them inline.
    pub fn base64(&self) -> String {
        use base64::Engine;
        base64::engine::general_purpose::STANDARD.encode(&self.data)
    }

    /// The line to send beside the image, e.g. `[Image: original 3000x1500, sent
    /// 1568x784 image/jpeg (201,337 bytes), scale 1.913: multiply coordinates by 1.913 to
    /// map to the original; about 1,624 tokens (anthropic)]`.
    pub fn note(&self) -> String {
        let mut s = format!("[Image: original {}", self.original);
        if let Some(c) = self.crop {
            s += &format!(", crop {}x{} at {},{}", c.width, c.height, c.x, c.y);
        }
        s += &format!(
            ", sent {} {} ({} bytes)",
            self.sent,
            self.mime,
            thousands(self.bytes)
        );
        if self.scale != 1.0 {
            s += &format!(
                ", scale {:.3}: multiply coordinates by {:.3} to map to the original",
                self.scale, self.scale
            );
            if self.crop.is_some() {
                s += " crop, then add its origin";
            }
        }
        if self.steps.contains(&ImageStep::FirstFrame) {
            s += "; first frame of the GIF";
        }
        s + &format!(
            "; about {} tokens ({})]",
            thousands(self.tokens),
            self.policy
        )
    }
}

/// `1234567` as `1,234,567`.
pub(crate) fn thousands(n: u64) -> String {
    let s = n.to_string();
    let mut out = String::with_capacity(s.len() + s.len() / 3);
    for (i, c) in s.chars().enumerate() {
        if i > 0 && (s.len() - i).is_multiple_of(3) {
            out.push(',');
        }
        out.push(c);
    }
    out
}

/// Reads the image in `src` (classified as `mime`) under `request`.
///
/// # Errors
///
/// [`Error::InvalidImage`] for an empty, truncated or malformed image;
/// [`Error::ImageTooLarge`] when its header claims more than the decode limit;
/// [`Error::FeatureDisabled`] when it must be changed and the `images` feature is off;
/// [`Error::InvalidSelection`] for a crop outside the image; [`Error::Changed`] or an
/// I/O error from the source.
pub fn read(src: &Source, mime: &str, request: &ImageRequest) -> Result<ImageRead> {
    let path = src.path();
    let format = ImageFormat::from_mime(mime).ok_or_else(|| Error::InvalidImage {
        path: path.to_path_buf(),
        message: format!(
            "{} is {mime}, not an image this reader sends (PNG, JPEG, GIF, WebP).",
            escaped(path)
        ),
    })?;
    let original = probe::probe(src, format)?;
    if original.pixels() == 0 {
        return Err(Error::InvalidImage {
            path: path.to_path_buf(),
            message: format!(
                "The {} header of {} gives a size of {original}: an image with no pixels. \
                 Use `file {}` to see what the file is.",
                format.name(),
                escaped(path),
                escaped(path)
            ),
        });
    }
    if original.pixels() > request.max_decode_pixels {
        return Err(Error::ImageTooLarge {
            path: path.to_path_buf(),
            width: i64::from(original.width),
            height: i64::from(original.height),
            limit: crate::error::int(request.max_decode_pixels),
        });
    }
    let crop = request.crop.map(|c| clamp(c, original)).transpose()?;
    let region = crop.map_or(original, |c| Size {
        width: c.width,
        height: c.height,
    });
    let policy = &request.policy;
    let target = policy.fit(region);
    let as_is = crop.is_none()
        && target == original
        && policy.fits_bytes(src.len())
        && (format != ImageFormat::Gif || !cfg!(feature = "images"));
    let mut data = Vec::new();
    src.read_append(
        0,
        usize::try_from(src.len()).unwrap_or(usize::MAX),
        &mut data,
    )?;
    let (data, sent, mime, steps) = if as_is {
        (
            data,
            original,
            format.mime().to_string(),
            vec![ImageStep::AsIs],
        )
    } else {
        changed(src, &data, format, original, crop, target, request)?
    };
    src.check_unchanged()?;
    let scale = f64::from(region.width.max(region.height)) / f64::from(sent.width.max(sent.height));
    Ok(ImageRead {
        path: path.display().to_string(),
        resolved_path: path.display().to_string(),
        file_size: src.len(),
        format,
        original,
        crop,
        sent,
        mime,
        bytes: data.len() as u64,
        scale: (scale * 1000.0).round() / 1000.0,
        tokens: policy.tokens.estimate(sent),
        policy: policy.name.clone(),
        steps,
        data,
    })
}

type Changed = (Vec<u8>, Size, String, Vec<ImageStep>);

/// The image decoded, cropped, downscaled and re-encoded to fit the policy.
#[cfg(feature = "images")]
fn changed(
    src: &Source,
    data: &[u8],
    format: ImageFormat,
    original: Size,
    crop: Option<Crop>,
    target: Size,
    request: &ImageRequest,
) -> Result<Changed> {
    codec::transform(data, format, original, crop, target, &request.policy).map_err(|message| {
        Error::InvalidImage {
            path: src.path().to_path_buf(),
            message: format!(
                "The {} image {} cannot be decoded: {message}. It may be truncated or \
                 corrupt; use `file {}` to see what it is.",
                format.name(),
                escaped(src.path()),
                escaped(src.path())
            ),
        }
    })
}

/// Without the `images` feature an image that does not fit cannot be changed.
#[cfg(not(feature = "images"))]
fn changed(
    src: &Source,
    _data: &[u8],
    format: ImageFormat,
    original: Size,
    crop: Option<Crop>,
    target: Size,
    request: &ImageRequest,
) -> Result<Changed> {
    let what = if crop.is_some() {
        "cropping".to_string()
    } else {
        format!(
            "it is {original} ({:.1} MP, {} bytes), over the {} policy ({}), and would be \
             sent as {target}; downscaling",
            original.pixels() as f64 / 1e6,
            thousands(src.len()),
            request.policy.name,
            request.policy.describe()
        )
    };
    Err(Error::FeatureDisabled {
        path: src.path().to_path_buf(),
        feature: "images",
        message: format!(
            "The {} image {}: {what} needs the \"images\" feature of rangeread, which this \
             build does not have. Build with --features images (the MCP server: --features \
             documents), or shrink the image first (e.g. `convert IN -resize {}x{} OUT`).",
            format.name(),
            escaped(src.path()),
            target.width,
            target.height
        ),
    })
}

/// The crop clamped to the image; an error when nothing of it is inside.
fn clamp(c: Crop, size: Size) -> Result<Crop> {
    if c.x >= size.width || c.y >= size.height || c.width == 0 || c.height == 0 {
        return Err(Error::selection(format!(
            "Invalid crop {},{},{},{}: it lies outside the image ({size}); x and y must be \
             below {} and {}.",
            c.x, c.y, c.width, c.height, size.width, size.height
        )));
    }
    Ok(Crop {
        width: c.width.min(size.width - c.x),
        height: c.height.min(size.height - c.y),
        ..c
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn thousands_groups_digits() {
        assert_eq!(thousands(0), "0");
        assert_eq!(thousands(999), "999");
        assert_eq!(thousands(1000), "1,000");
        assert_eq!(thousands(1234567), "1,234,567");
    }

    #[test]
    fn a_header_without_pixels_is_an_invalid_image() {
        let mut png = b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR".to_vec();
        png.extend(0u32.to_be_bytes());
        png.extend(10u32.to_be_bytes());
        png.extend([8, 0, 0, 0, 0, 0, 0, 0, 0]);
        let src = Source::from_bytes(png, "zero.png");
        let e = read(&src, "image/png", &ImageRequest::default()).unwrap_err();
        assert!(
            e.to_string()
                .contains("a size of 0x10: an image with no pixels"),
            "{e}"
        );
    }

    #[test]
    fn crops_are_clamped_or_refused() {
        let s = Size {
            width: 100,
            height: 50,
        };
        let c = clamp("90,40,50,50".parse().unwrap(), s).unwrap();
        assert_eq!((c.width, c.height), (10, 10));
        assert!(clamp("100,0,5,5".parse().unwrap(), s).is_err());
        assert!("1,2,3".parse::<Crop>().is_err());
        assert!("1,2,0,3".parse::<Crop>().is_err());
    }
}
