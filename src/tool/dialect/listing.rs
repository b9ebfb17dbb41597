//! A directory's listing as data (rendered by `render::listing`), for the tools that answer a directory with its entries
//! (Goose's `read_file`) instead of an error.

use serde::{Deserialize, Serialize};

use crate::tool::dialect::Clip;

/// How a tool lists a directory it was asked to read: a title, then the entries, then
/// what was left out.
///
/// By default the entries are the directory's own, in two groups (the subdirectories,
/// then the files), each sorted by name and shown only when it has entries (Goose). With
/// [`Listing::depth`] 2 and [`ListingOrder::Paths`] the listing is what `find DIR
/// -maxdepth 2 | sort` prints (OpenHands). Entries that a workspace protects are left
/// out (a listing must not show what a read would refuse); a subdirectory is listed in
/// only when the workspace resolves it (a link out of it is shown, not followed), and
/// one that cannot be read is shown without its entries.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Listing {
    /// Before the entries (`{path}`: the directory as the dialect shows paths).
    pub title: String,
    /// Before the subdirectories (grouped order); by default nothing.
    #[serde(default)]
    pub dirs_title: String,
    /// Each subdirectory (`{name}`: its path under the directory, `{path}` as in the
    /// title).
    pub dir_entry: String,
    /// After the subdirectories (grouped order); by default nothing.
    #[serde(default)]
    pub dirs_end: String,
    /// Before the files (grouped order); by default nothing.
    #[serde(default)]
    pub files_title: String,
    /// Each file, or anything that is not a directory (`{name}`, `{path}`).
    pub file_entry: String,
    /// After the title, for a directory without entries shown; by default nothing.
    #[serde(default)]
    pub empty: String,
    /// The most entries shown (0: all).
    pub max_entries: u64,
    /// After the entries, when some were left out (`{more}`: how many, `{max}`); by
    /// default nothing.
    #[serde(default)]
    pub more: String,
    /// How many levels down entries are listed; by default 1, the directory's own.
    #[serde(default = "one", skip_serializing_if = "is_one")]
    pub depth: u64,
    /// A call that gives a `[start, end]` range for a directory is refused with this
    /// text (`{name}`: the parameter, `{value}`: the range as the dialect's refusals
    /// quote it), as OpenHands refuses it; by default the range is ignored and the
    /// directory listed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub range_refusal: Option<String>,
    /// How the entries are ordered; by default grouped, directories first.
    #[serde(default, skip_serializing_if = "ListingOrder::is_grouped")]
    pub order: ListingOrder,
    /// When set, entries whose name starts with `.` are left out with everything under
    /// them, and this follows the entries when the directory itself holds some
    /// (`{count}`: how many, `{path}`); by default they are listed.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub hidden: Option<String>,
    /// The entries' text cut after a number of characters, with a notice; by default
    /// not cut.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub clip: Option<Clip>,
}

/// How a [`Listing`] orders its entries.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ListingOrder {
    /// The subdirectories, then the files, each group sorted by path, with the group
    /// titles.
    #[default]
    Grouped,
    /// One list sorted by path, byte by byte (`sort` in the C locale): a directory comes
    /// right before what it holds.
    Paths,
}

impl ListingOrder {
    pub(crate) fn is_grouped(&self) -> bool {
        *self == ListingOrder::Grouped
    }
}

fn one() -> u64 {
    1
}

fn is_one(n: &u64) -> bool {
    *n == 1
}
