//! A read tool's indentation mode (Codex's `read_file`): a [`Role::Mode`] parameter
//! that chooses between reading lines as the line parameters say (`slice`, the default)
//! and the block around an anchor line found by indentation (`indentation`), and a
//! [`Role::Indentation`] object with that block's options.
//!
//! | option | meaning | default |
//! |---|---|---|
//! | `anchor_line` | the line the block is found around, 1-based | the first line of the read ([`Role::Offset`]), else 1 |
//! | `max_levels` | levels of 4 columns above the anchor's indentation; 0: no limit | 0 |
//! | `include_siblings` | the blocks beside the anchor's too | `false` |
//! | `include_header` | comment lines directly above the block's header | `true` |
//! | `max_lines` | the most lines; the effective cap is the smaller of it and the line count ([`Role::Limit`], else the dialect's default) | the line count |
//!
//! The options object is read only in indentation mode, as Codex reads it.

use serde_json::{Map, Value};

use crate::error::Result;
use crate::select::{LineSelection, Selection};
use crate::tool::decode::args::Given;
use crate::tool::decode::args::{invalid, param, Args};
use crate::tool::dialect::template::fill;
use crate::tool::dialect::{Dialect, Param, Role, Special};
use crate::IndentSelection;

/// The indentation parameters of a call.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub(crate) struct IndentRequest {
    /// The mode, as given.
    pub mode: Option<Given<String>>,
    /// The options object, as given.
    pub options: Option<Given<Map<String, Value>>>,
}

/// The modes a [`Role::Mode`] parameter takes.
const MODES: [&str; 2] = ["slice", "indentation"];

impl IndentRequest {
    /// Reads a [`Role::Mode`] or [`Role::Indentation`] parameter; whether it was given.
    pub fn decode(&mut self, role: Role, names: &[&str], a: &mut Args) -> Result<bool> {
        if role == Role::Mode {
            self.mode = a.string(names)?.map(|(name, value)| Given { name, value });
            if let Some(g) = &self.mode {
                if !MODES.contains(&g.value.as_str()) {
                    let what = "\"slice\" or \"indentation\"";
                    return Err(invalid(&g.name, what, &Value::String(g.value.clone())));
                }
            }
            return Ok(self.mode.is_some());
        }
        self.options = match a.take(names)? {
            None => None,
            Some((name, Value::Object(m))) => Some(Given { name, value: m }),
            Some((name, v)) => return Err(invalid(&name, "an object", &v)),
        };
        Ok(self.options.is_some())
    }

    /// Whether the call asks for the indentation block.
    pub fn wanted(&self) -> bool {
        self.mode.as_ref().is_some_and(|g| g.value == "indentation")
    }

    /// The indentation block a call asks for, and the name its first line goes by in
    /// messages. `first` is the first line the line parameters give (the default
    /// anchor) and `count` the number of lines (the default cap); a 0 anchor or
    /// `max_lines` is refused as the dialect refuses a 0 first line or count.
    pub fn selection(
        &self,
        d: &Dialect,
        first: Option<&Given<i64>>,
        count: Option<u64>,
    ) -> Result<(Selection, String)> {
        let mut a = Args::new(self.options.clone().map(|g| g.value).unwrap_or_default());
        let what = "a non-negative integer";
        let anchor = a.int(&["anchor_line"], what)?;
        let levels = a.int(&["max_levels"], what)?;
        let siblings = a.boolean(&["include_siblings"])?;
        let header = a.boolean(&["include_header"])?;
        let max_lines = a.int(&["max_lines"], what)?;
        if let Some(k) = a.unknown().filter(|_| !d.ignore_unknown) {
            return Err(param(
                k,
                format!(
                    "Unknown parameter {k:?} in indentation; accepted: anchor_line, \
                     max_levels, include_siblings, include_header, max_lines"
                ),
            ));
        }
        for (name, v) in [&anchor, &levels, &max_lines].into_iter().flatten() {
            if *v < 0 {
                return Err(invalid(name, what, &Value::from(*v)));
            }
        }
        let zero = |role: Role, name: &str| match d.params.iter().find(|p| p.role == role) {
            Some(Param {
                zero: Some(Special::Message(t)),
                ..
            }) => param(name, fill(t, &[("name", &name), ("value", &0u64)])),
            _ if role == Role::Offset => {
                param(name, format!("{name} (0) is invalid: lines are 1-indexed"))
            }
            _ => param(name, format!("{name} must be greater than zero")),
        };
        let anchor = match (&anchor, first) {
            (Some((name, 0)), _) => return Err(zero(Role::Offset, name)),
            (Some((_, v)), _) => *v as u64,
            (None, Some(g)) => g.value.max(1) as u64,
            (None, None) => 1,
        };
        let mut sel = IndentSelection::new(anchor)
            .max_levels(levels.map_or(0, |(_, v)| v as u64))
            .include_siblings(siblings.is_some_and(|(_, v)| v))
            .include_header(header.is_none_or(|(_, v)| v));
        let cap = match (max_lines, count) {
            (Some((name, 0)), _) => return Err(zero(Role::Limit, &name)),
            (Some((_, m)), Some(c)) => Some((m as u64).min(c)),
            (Some((_, m)), None) => Some(m as u64),
            (None, c) => c,
        };
        if let Some(cap) = cap {
            sel = sel.max_lines(cap);
        }
        // A missing anchor line is the anchor's, however the call gave it.
        Ok((LineSelection::indentation(sel).into(), "anchor_line".into()))
    }
}
