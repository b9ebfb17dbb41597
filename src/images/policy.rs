//! What a model provider accepts: the [`ImagePolicy`] that decides whether an image is
//! sent as it is or downscaled, and how many tokens it will cost.

use serde::{Deserialize, Serialize};

use super::Size;

/// How a provider counts the tokens of an image (an estimate: providers may change it).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case", tag = "rule")]
#[non_exhaustive]
pub enum TokenRule {
    /// One token per square patch of `size` pixels: `ceil(w/size) * ceil(h/size)`
    /// (Anthropic: 28-pixel patches, which Claude Code uses too).
    Patches {
        /// The side of a patch in pixels.
        size: u32,
    },
    /// OpenAI's "high" detail: the image is fitted inside `fit`x`fit`, then scaled so its
    /// short side is at most `short`, then cut into `tile`-pixel squares:
    /// `base + per_tile * tiles`.
    Tiles {
        /// The square the image is first fitted into (2048).
        fit: u32,
        /// The short side after the second scaling (768).
        short: u32,
        /// The side of a tile (512).
        tile: u32,
        /// Tokens per tile (170).
        per_tile: u64,
        /// Tokens added to every image (85).
        base: u64,
    },
    /// Gemini: `per_tile` tokens when both sides are at most `small`; otherwise the image
    /// is cut into crop units of `floor(min(w, h) / 1.5)` pixels, `per_tile` tokens each.
    CropUnits {
        /// Both sides at most this: one unit (384).
        small: u32,
        /// Tokens per unit (258).
        per_tile: u64,
    },
}

impl TokenRule {
    /// The estimated tokens of an image of `size` sent under this rule.
    pub fn estimate(&self, size: Size) -> u64 {
        let (w, h) = (u64::from(size.width.max(1)), u64::from(size.height.max(1)));
        match *self {
            TokenRule::Patches { size } => {
                let s = u64::from(size.max(1));
                w.div_ceil(s) * h.div_ceil(s)
            }
            TokenRule::Tiles {
                fit,
                short,
                tile,
                per_tile,
                base,
            } => {
                let (mut w, mut h) = (w as f64, h as f64);
                let f = (f64::from(fit) / w.max(h)).min(1.0);
                (w, h) = (w * f, h * f);
                let s = (f64::from(short) / w.min(h)).min(1.0);
                (w, h) = ((w * s).floor().max(1.0), (h * s).floor().max(1.0));
                let t = f64::from(tile.max(1));
                base + per_tile * ((w / t).ceil() as u64) * ((h / t).ceil() as u64)
            }
            TokenRule::CropUnits { small, per_tile } => {
                let small = u64::from(small);
                if w <= small && h <= small {
                    return per_tile;
                }
                let unit = ((w.min(h) as f64 / 1.5).floor() as u64).max(1);
                per_tile * w.div_ceil(unit) * h.div_ceil(unit)
            }
        }
    }
}

/// The limits an image must meet to be sent to a model, and how its tokens are counted.
///
/// A read sends the file as it is when it fits (its bytes untouched); otherwise, with the
/// `images` feature, it is downscaled (aspect ratio kept) and re-encoded until it does.
/// Every limit is optional (`None`: no limit).
///
/// The presets follow the providers' published limits (November 2026; see
/// `docs/documents.md` for the pages they come from). Each is the stricter of what the
/// provider refuses and what it would shrink anyway: sending more pixels than the model
/// sees costs bytes and latency and moves coordinates.
///
/// # Example
///
/// ```
/// use rangeread::images::{ImagePolicy, Size};
///
/// let p = ImagePolicy::anthropic();
/// assert_eq!(p.fit(Size { width: 4000, height: 3000 }), Size { width: 1238, height: 928 });
/// assert_eq!(p.tokens.estimate(Size { width: 1238, height: 928 }), 45 * 34);
/// ```
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[non_exhaustive]
pub struct ImagePolicy {
    /// A name for messages and results (`anthropic`, `openai` ...).
    pub name: String,
    /// The longest side, in pixels.
    pub max_long_edge: Option<u32>,
    /// The shortest side, in pixels.
    pub max_short_edge: Option<u32>,
    /// Width times height.
    pub max_pixels: Option<u64>,
    /// The size of the file sent, in bytes (before any base64).
    pub max_bytes: Option<u64>,
    /// JPEG qualities tried in turn when an image must be re-encoded to fit `max_bytes`.
    pub jpeg_qualities: Vec<u8>,
    /// How the provider counts the image's tokens.
    pub tokens: TokenRule,
}

impl Default for ImagePolicy {
    /// [`ImagePolicy::anthropic`].
    fn default() -> Self {
        ImagePolicy::anthropic()
    }
}

/// A policy named `name` with no limits and the given token rule.
fn unlimited(name: &str, tokens: TokenRule) -> ImagePolicy {
    ImagePolicy {
        name: name.to_string(),
        max_long_edge: None,
        max_short_edge: None,
        max_pixels: None,
        max_bytes: None,
        jpeg_qualities: vec![85, 70, 55, 40],
        tokens,
    }
}

impl ImagePolicy {
    /// Anthropic's Messages API (Claude): images above 1568 pixels on the long edge or
    /// about 1.15 megapixels are downscaled by the API before the model sees them (8000
    /// pixels a side is refused), 5 MB a file (as base64: 3.75 MB of raw bytes), tokens
    /// `ceil(w/28) * ceil(h/28)`.
    pub fn anthropic() -> ImagePolicy {
        ImagePolicy {
            max_long_edge: Some(1568),
            max_pixels: Some(1_150_000),
            max_bytes: Some(3_750_000),
            ..unlimited("anthropic", TokenRule::Patches { size: 28 })
        }
    }

    /// Claude Code's Read tool (release 2.1.331): at most 2000x2000 pixels and 512,000
    /// bytes, JPEG qualities 80, 60, 40, 20, tokens `ceil(w/28) * ceil(h/28)`.
    pub fn claude_code() -> ImagePolicy {
        ImagePolicy {
            max_long_edge: Some(2000),
            max_bytes: Some(512_000),
            jpeg_qualities: vec![80, 60, 40, 20],
            ..unlimited("claude-code", TokenRule::Patches { size: 28 })
        }
    }

    /// OpenAI (Chat Completions and Responses, `detail: high`): 20 MB a file; the model
    /// sees the image fitted inside 2048x2048 with its short side at most 768 pixels,
    /// tokens `85 + 170` per 512-pixel tile of that.
    pub fn openai() -> ImagePolicy {
        ImagePolicy {
            max_long_edge: Some(2048),
            max_short_edge: Some(768),
            max_bytes: Some(20_000_000),
            ..unlimited(
                "openai",
                TokenRule::Tiles {
                    fit: 2048,
                    short: 768,
                    tile: 512,
                    per_tile: 170,
                    base: 85,
                },
            )
        }
    }

    /// Google Gemini: inline data up to 7 MB a file (Vertex AI; the Gemini API allows
    /// 20 MB a request), 258 tokens an image of at most 384x384, else 258 a crop unit.
    /// Google publishes no pixel limit; this preset keeps the long edge at 3072 pixels,
    /// where a photo costs at most 12 units.
    pub fn gemini() -> ImagePolicy {
        ImagePolicy {
            max_long_edge: Some(3072),
            max_bytes: Some(7_000_000),
            ..unlimited(
                "gemini",
                TokenRule::CropUnits {
                    small: 384,
                    per_tile: 258,
                },
            )
        }
    }

    /// No limits: every image is sent as it is (tokens counted in 28-pixel patches).
    pub fn none() -> ImagePolicy {
        unlimited("none", TokenRule::Patches { size: 28 })
    }

    /// The preset called `name` (`anthropic`, `claude-code`, `openai`, `gemini`, `none`).
    pub fn preset(name: &str) -> Option<ImagePolicy> {
        Some(match name {
            "anthropic" | "claude" => ImagePolicy::anthropic(),
            "claude-code" | "claude_code" => ImagePolicy::claude_code(),
            "openai" => ImagePolicy::openai(),
            "gemini" | "google" => ImagePolicy::gemini(),
            "none" => ImagePolicy::none(),
            _ => return None,
        })
    }

    /// Whether an image of `size` meets the pixel limits.
    pub fn fits(&self, size: Size) -> bool {
        self.fit(size) == size
    }

    /// The largest size with the aspect ratio of `size` (rounded down, at least 1x1) that
    /// meets the pixel limits; `size` itself when it does.
    pub fn fit(&self, size: Size) -> Size {
        let (w, h) = (f64::from(size.width.max(1)), f64::from(size.height.max(1)));
        let mut f: f64 = 1.0;
        if let Some(m) = self.max_long_edge {
            f = f.min(f64::from(m) / w.max(h));
        }
        if let Some(m) = self.max_short_edge {
            f = f.min(f64::from(m) / w.min(h));
        }
        if let Some(m) = self.max_pixels {
            f = f.min((m as f64 / (w * h)).sqrt());
        }
        if f >= 1.0 {
            return size;
        }
        let scaled = |v: f64| ((v * f).floor() as u32).max(1);
        let mut out = Size {
            width: scaled(w),
            height: scaled(h),
        };
        // Floating point may leave the product a pixel over.
        while self
            .max_pixels
            .is_some_and(|m| u64::from(out.width) * u64::from(out.height) > m)
        {
            out.width = (out.width - 1).max(1);
            out.height = ((f64::from(out.width) * h / w).floor() as u32).max(1);
        }
        out
    }

    /// Whether a file of `bytes` bytes meets the byte limit.
    pub fn fits_bytes(&self, bytes: u64) -> bool {
        self.max_bytes.is_none_or(|m| bytes <= m)
    }

    /// The limits in words, for messages: `1568 px long edge, 1.15 MP, 3.75 MB`.
    pub fn describe(&self) -> String {
        let mut parts = Vec::new();
        if let Some(m) = self.max_long_edge {
            parts.push(format!("{m} px long edge"));
        }
        if let Some(m) = self.max_short_edge {
            parts.push(format!("{m} px short edge"));
        }
        if let Some(m) = self.max_pixels {
            parts.push(format!("{:.2} MP", m as f64 / 1e6));
        }
        if let Some(m) = self.max_bytes {
            parts.push(format!("{:.2} MB", m as f64 / 1e6));
        }
        if parts.is_empty() {
            "no limits".to_string()
        } else {
            parts.join(", ")
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sz(width: u32, height: u32) -> Size {
        Size { width, height }
    }

    #[test]
    fn fit_keeps_the_aspect_ratio_within_every_limit() {
        for p in [
            ImagePolicy::anthropic(),
            ImagePolicy::claude_code(),
            ImagePolicy::openai(),
            ImagePolicy::gemini(),
        ] {
            for s in [
                sz(4000, 3000),
                sz(100_000, 10),
                sz(10, 100_000),
                sz(1568, 1568),
            ] {
                let f = p.fit(s);
                assert!(f.width <= s.width && f.height <= s.height);
                assert!(p.fits(f), "{} {s:?} -> {f:?}", p.name);
                let (ra, rb) = (
                    f64::from(s.width) / f64::from(s.height),
                    f64::from(f.width) / f64::from(f.height),
                );
                if f.width > 50 && f.height > 50 {
                    assert!((ra / rb - 1.0).abs() < 0.01, "{ra} {rb}");
                }
            }
        }
    }

    #[test]
    fn token_rules_match_the_providers_worked_examples() {
        // OpenAI's examples: 1024x1024 high = 765, 2048x4096 = 1105.
        let o = ImagePolicy::openai().tokens;
        assert_eq!(o.estimate(sz(1024, 1024)), 765);
        assert_eq!(o.estimate(sz(2048, 4096)), 1105);
        // Gemini: small images one unit.
        let g = ImagePolicy::gemini().tokens;
        assert_eq!(g.estimate(sz(384, 200)), 258);
        assert_eq!(g.estimate(sz(960, 540)), 258 * 3 * 2);
        // Anthropic: 28-pixel patches.
        assert_eq!(
            ImagePolicy::anthropic().tokens.estimate(sz(1092, 1092)),
            39 * 39
        );
    }
}
