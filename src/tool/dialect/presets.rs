//! The preset dialects: each a JSON file in `src/tool/dialect/presets/`, compiled in.

use crate::error::{Error, Result};
use crate::tool::dialect::Dialect;

/// Every preset: its name and its JSON.
const PRESETS: &[(&str, &str)] = &[
    ("read_file", include_str!("presets/read_file.json")),
    (
        "session_read_file",
        include_str!("presets/session_read_file.json"),
    ),
    ("file_read", include_str!("presets/file_read.json")),
    ("fs_read", include_str!("presets/fs_read.json")),
    ("vault", include_str!("presets/vault.json")),
    ("codex", include_str!("presets/codex.json")),
    (
        "rust-mcp-filesystem/read_text_file",
        include_str!("presets/rust-mcp-filesystem/read_text_file.json"),
    ),
    (
        "rust-mcp-filesystem/head_file",
        include_str!("presets/rust-mcp-filesystem/head_file.json"),
    ),
    (
        "rust-mcp-filesystem/tail_file",
        include_str!("presets/rust-mcp-filesystem/tail_file.json"),
    ),
    (
        "rust-mcp-filesystem/read_file_lines",
        include_str!("presets/rust-mcp-filesystem/read_file_lines.json"),
    ),
    ("gemini", include_str!("presets/gemini.json")),
    (
        "mcp-filesystem/read_text_file",
        include_str!("presets/mcp-filesystem/read_text_file.json"),
    ),
    (
        "mcp-filesystem/read_file",
        include_str!("presets/mcp-filesystem/read_file.json"),
    ),
    (
        "mcp-filesystem/read_media_file",
        include_str!("presets/mcp-filesystem/read_media_file.json"),
    ),
    ("zed", include_str!("presets/zed.json")),
    ("crush", include_str!("presets/crush.json")),
    ("goose", include_str!("presets/goose.json")),
    ("claude-code", include_str!("presets/claude-code.json")),
    ("forge", include_str!("presets/forge.json")),
    ("openhands", include_str!("presets/openhands.json")),
    (
        "openhands-tools",
        include_str!("presets/openhands-tools.json"),
    ),
];

impl Dialect {
    /// The preset named `name` (see [`Dialect::presets`]).
    ///
    /// # Errors
    ///
    /// [`Error::InvalidParameter`] (`preset`) naming the presets, for an unknown name.
    pub fn preset(name: &str) -> Result<Dialect> {
        let (_, text) =
            PRESETS
                .iter()
                .find(|(n, _)| *n == name)
                .ok_or_else(|| Error::InvalidParameter {
                    parameter: "preset".into(),
                    message: format!(
                        "Unknown preset {name:?}; the presets are {}",
                        Dialect::presets().join(", ")
                    ),
                })?;
        Ok(serde_json::from_str(text).expect("the preset files are checked by the tests"))
    }

    /// The names of the presets: one a tool; a peer that serves several tools has
    /// one preset for each, named `PEER/TOOL` (`rust-mcp-filesystem/head_file`).
    pub fn presets() -> Vec<&'static str> {
        PRESETS.iter().map(|(n, _)| *n).collect()
    }

    /// The tools a server serves for `name`: the preset of that name, or every
    /// `name/TOOL` preset of a peer with several tools.
    ///
    /// ```
    /// use rangeread::tool::Dialect;
    ///
    /// assert_eq!(Dialect::preset_tools("vault")?.len(), 1);
    /// # Ok::<(), rangeread::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Dialect::preset`], for a name that is neither.
    pub fn preset_tools(name: &str) -> Result<Vec<Dialect>> {
        let prefix = format!("{name}/");
        let several: Vec<&str> = PRESETS
            .iter()
            .map(|(n, _)| *n)
            .filter(|n| n.starts_with(&prefix))
            .collect();
        if several.is_empty() {
            return Ok(vec![Dialect::preset(name)?]);
        }
        several.into_iter().map(Dialect::preset).collect()
    }

    /// The names a server takes for `--preset`: each preset, and each peer with
    /// several tools once.
    pub fn preset_names() -> Vec<&'static str> {
        let mut names: Vec<&'static str> = PRESETS
            .iter()
            .map(|(n, _)| n.split('/').next().unwrap_or(n))
            .collect();
        names.dedup();
        names
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_parses_and_names_itself() {
        for name in Dialect::presets() {
            let d: Dialect =
                serde_json::from_str(PRESETS.iter().find(|(n, _)| *n == name).unwrap().1)
                    .unwrap_or_else(|e| panic!("{name}: {e}"));
            assert_eq!(d.preset, name);
            assert!(!d.description.is_empty(), "{name}");
        }
        assert!(Dialect::preset("nope").is_err());
        assert!(Dialect::preset_tools("nope").is_err());
        for name in Dialect::preset_names() {
            let tools = Dialect::preset_tools(name).unwrap();
            let mut names: Vec<&str> = tools.iter().map(|d| d.name.as_str()).collect();
            names.sort_unstable();
            names.dedup();
            assert_eq!(names.len(), tools.len(), "{name}: two tools of one name");
        }
    }
}
