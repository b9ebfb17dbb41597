//! What a parameter means: the [`Role`] of each parameter of a dialect.

use serde::{Deserialize, Serialize};

/// What a parameter means.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// The file (a string).
    Path,
    /// The session whose workspace the path is resolved in.
    Session,
    /// The first line, 1-based, of a range closed by [`Role::EndLine`].
    StartLine,
    /// The last line of the range, inclusive.
    EndLine,
    /// The first line, 1-based, of `limit` lines.
    Offset,
    /// The number of lines to skip (0-based first line) before `limit` lines.
    Skip,
    /// The number of lines to read.
    Limit,
    /// The first N lines.
    Head,
    /// The last N lines.
    Tail,
    /// The first byte, 0-based.
    StartByte,
    /// The end of the byte range, exclusive.
    EndByte,
    /// `true`: read the whole file.
    Entire,
    /// `[start, end]`: 1-based inclusive lines; an end of `-1` reads to the end.
    LineRange,
    /// Accepted and not used (an explanation).
    Ignored,
    /// `true`: each line through [`crate::tool::Output::line`]; `false`: through
    /// [`crate::tool::Output::unnumbered_line`], or the content as it is (a tool whose numbering is a
    /// switch); absent: the `default` of the parameter's schema, else `false`. Without
    /// such a parameter the template always applies.
    LineNumbers,
    /// `slice` (the default: the line parameters) or `indentation` (the block around
    /// an anchor line, found by indentation: see [`Role::Indentation`]).
    Mode,
    /// The indentation block's options (`anchor_line`, `max_levels`,
    /// `include_siblings`, `include_header`, `max_lines`), read in indentation mode.
    Indentation,
    /// A page or page range of a paged document (`"3"`, `"1-5"`), checked by
    /// [`crate::tool::Dialect::pages`]; text files ignore it.
    Pages,
    /// A notebook's cells (`"3"`, `"2-9"`, `"10-"`, from 0, or a cell id); other files
    /// ignore it.
    Cells,
    /// A region of an image in its original pixels, `"x,y,width,height"`; other files
    /// ignore it.
    Crop,
    /// `true`: lift the caps up to the room the host says the caller has left
    /// ([`crate::tool::CapLift`]).
    LiftCaps,
    /// The command of a tool that does several things (`view`, `create` ...): a string
    /// that must be one of [`crate::tool::Param::serves`].
    Command,
}

impl Role {
    /// Whether the parameter's value is a number (a line, a count, a byte offset).
    pub(crate) fn is_numeric(self) -> bool {
        matches!(
            self,
            Role::StartLine
                | Role::EndLine
                | Role::Offset
                | Role::Skip
                | Role::Limit
                | Role::Head
                | Role::Tail
                | Role::StartByte
                | Role::EndByte
        )
    }
}
