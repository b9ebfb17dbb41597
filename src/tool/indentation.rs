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
use crate::tool::args::{invalid, param, Args};
use crate::tool::decode::Given;
use crate::tool::dialect::Role;

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

    /// The indentation block of a call that asks for it: refused, as this build's
    /// library has no indentation selection yet.
    pub fn refuse(&self) -> crate::error::Error {
        let name = self.mode.as_ref().map_or("mode", |g| g.name.as_str());
        param(
            name,
            "mode \"indentation\" is not available in this build (the library's \
             indentation selection is missing); use mode \"slice\"",
        )
    }
}
