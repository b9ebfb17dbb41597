//! Image dimensions from the header, without decoding: what a read knows before it
//! decides anything (and what refuses a header that claims absurd dimensions).

use crate::error::{escaped, Error, Result};
use crate::source::Source;
use crate::stream::SourceStream;

use super::{ImageFormat, Size};

/// The format and dimensions of the image in `src`, from its header (the `imagesize`
/// crate: the first bytes of PNG, GIF and WebP; JPEG's markers up to the frame header).
pub(crate) fn probe(src: &Source, format: ImageFormat) -> Result<Size> {
    if src.is_empty() {
        return Err(Error::InvalidImage {
            path: src.path().to_path_buf(),
            message: format!("Image file is empty: {}", escaped(src.path())),
        });
    }
    let mut stream = SourceStream::new(src);
    match imagesize::reader_size(&mut stream) {
        Ok(s) => Ok(Size {
            width: u32::try_from(s.width).unwrap_or(u32::MAX),
            height: u32::try_from(s.height).unwrap_or(u32::MAX),
        }),
        Err(_) if stream.failed() => Err(stream.error()),
        Err(e) => Err(Error::InvalidImage {
            path: src.path().to_path_buf(),
            message: format!(
                "The {} header of {} cannot be read ({e}): the file is truncated or not an \
                 image. Use `file {}` to see what it is.",
                format.name(),
                escaped(src.path()),
                escaped(src.path()),
            ),
        }),
    }
}
