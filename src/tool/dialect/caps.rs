//! The caps of a dialect that refuse a read, or cut a whole-file read to its first page
//! (the `caps` part of a [`crate::tool::Dialect`], beside [`crate::tool::Caps`]), and the
//! opt-in that lifts them.

use serde::{Deserialize, Serialize};

/// A cap on the tokens of a read, by an estimate from its characters (UTF-16 code
/// units, as JavaScript counts them).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TokenCap {
    /// The most tokens.
    pub tokens: u64,
    /// Characters a token, by default (the estimate is `round(chars / this)`).
    pub chars_per_token: u64,
    /// Characters a token for these extensions (without the dot: `{"json": 2}`).
    #[serde(default, skip_serializing_if = "std::collections::BTreeMap::is_empty")]
    pub chars_per_token_by_extension: std::collections::BTreeMap<String, u64>,
    /// The refusal (`{tokens}`: the estimate, `{max}`, `{suffix}`).
    pub message: String,
    /// A whole-file read over the cap answers its first page instead of refusing.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub first_page: Option<FirstPage>,
}

/// The first page of a whole-file read over the token cap: `lines × cap / tokens ×
/// fill_percent %` lines, shrunk by `shrink_percent` % (at most `shrink_steps` times)
/// while still over the cap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct FirstPage {
    /// The share of the cap the first estimate aims at, in percent.
    pub fill_percent: u64,
    /// How much each shrinking step keeps, in percent.
    pub shrink_percent: u64,
    /// The most shrinking steps.
    pub shrink_steps: u32,
    /// After the page's lines (`{path}` absolute, `{end}`: its last line, `{total}`,
    /// `{tokens}`, `{max}`, `{next}`, `{suffix}`).
    pub banner: String,
    /// Instead of lines, when not even the first line fits: the first characters
    /// (`{shown}`, `{chars}`, `{path}`, `{tokens}`, `{max}`, `{suffix}`).
    pub chars_banner: String,
    /// The page is numbered from line 1 even when the read asked for `offset: 0`,
    /// which numbers an uncut read from 0 (Claude Code starts a cut page at line
    /// `max(1, offset)`).
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub numbered_from_one: bool,
}

/// What raising the caps needs and says. A lifted read may take `room_tokens ×
/// room_percent %` tokens (the share); when that share is no more than the token cap,
/// nothing is lifted. Lifted, the token cap is the share and the byte caps are at least
/// `share × bytes_per_token × bytes_per_token_factor`. A refusal suggests the opt-in
/// (`suggest`) when what it measured is within the lifted cap of that measure: the
/// file's size (its tokens unchecked), the text's tokens, or for a range (read only up
/// to its cap) a lifted range cap above the cap.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct CapLift {
    /// Tokens the caller's context has left, as the host knows them; `None`: unknown (an
    /// MCP server does not know its client's context), and the opt-in lifts nothing.
    /// Claude Code's: its auto-compact threshold (the model's window less the smaller of
    /// its output limit and 20,000, less 13,000: 167,000 on a 200,000-token model) less
    /// what the conversation already holds.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub room_tokens: Option<u64>,
    /// The share of that room a lifted read may take, in percent.
    pub room_percent: u64,
    /// Bytes a token, for the lifted byte caps: the model's (Claude Code: 4 for the
    /// models it lists as older, 3 for newer ones); by default the token cap's
    /// characters a token for the file's extension.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bytes_per_token: Option<u64>,
    /// Lifted byte caps are at least `tokens × bytes a token × this`.
    pub bytes_per_token_factor: u64,
    /// `{suffix}` when the room is known and the read would fit it lifted.
    pub suggest: String,
    /// `{suffix}` when the room is known and the read would not fit it.
    pub no_room: String,
    /// `{suffix}` when the caller opted in and the room is unknown.
    pub unavailable: String,
}

/// A size over which a read is refused.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct SizeCap {
    /// The most bytes.
    pub bytes: u64,
    /// The refusal.
    pub message: String,
}
