//! The preset dialects: each a JSON file in `src/tool/presets/`, compiled in.

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

    /// The names of the presets.
    pub fn presets() -> Vec<&'static str> {
        PRESETS.iter().map(|(n, _)| *n).collect()
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
    }
}
