//! A dialect's project rules: the files its agent reads to know which paths no model
//! may read, and the agent's words for a refusal.

use std::collections::BTreeMap;

use serde::{Deserialize, Serialize};

use crate::workspace::{RuleFile, Workspace};

/// The rule files a dialect's agent honours in its read tool, as data (the presets'
/// `rules`), and how it words a refusal.
///
/// A [`crate::tool::DialectTool`] adds them to every workspace it is given
/// ([`Workspace::with_rule_files`]), unless [`ProjectRules::enabled`] is false (the
/// agent's own switch, such as Gemini CLI's `respectGeminiIgnore`).
///
/// Templates take `{path}` (the path as the caller gave it; made absolute where the
/// dialect's roots take paths by their spelling, [`crate::tool::Links::Inside`]),
/// `{rule}` (the pattern as written), `{file}` (the rule file, relative to the root),
/// `{setting}` (its setting, for settings files) and `{dirs}` (the roots).
///
/// ```
/// use rangeread::tool::{Dialect, DialectTool};
/// use rangeread::Workspace;
///
/// let dir = tempfile::tempdir()?;
/// std::fs::write(dir.path().join(".geminiignore"), "foo.*\n")?;
/// std::fs::write(dir.path().join("foo.bar"), "secret")?;
/// let tool = DialectTool::new(Dialect::preset("gemini")?).workspace(Workspace::new(dir.path())?);
/// let path = dir.path().canonicalize()?.join("foo.bar");
/// let r = tool.respond(serde_json::json!({"file_path": path}).to_string());
/// assert!(r.is_error);
/// assert_eq!(
///     r.text,
///     format!("File path '{}' is ignored by configured ignore patterns.", path.display())
/// );
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields, default)]
pub struct ProjectRules {
    /// By default true: the rule files are read. False reads none of them (the
    /// protected patterns of the workspace still apply).
    pub enabled: bool,
    /// The rule files, in the order the agent consults them.
    #[serde(skip_serializing_if = "Vec::is_empty")]
    pub files: Vec<RuleFile>,
    /// A refusal by a rule the project wrote; by default the library's text
    /// ([`crate::Error::Denied`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub refusal: Option<String>,
    /// A refusal by one of the agent's defaults (the file or setting is absent); by
    /// default as [`ProjectRules::refusal`].
    #[serde(skip_serializing_if = "Option::is_none")]
    pub default_refusal: Option<String>,
    /// Refusals by the rules of one source (keyed by its [`RuleFile::path`]), over the
    /// two above: Gemini CLI refuses its blocked path segments as outside the workspace.
    #[serde(skip_serializing_if = "BTreeMap::is_empty")]
    pub refusal_by_file: BTreeMap<String, String>,
    /// Which files bind the agent's read tool and why, with where that is said in the
    /// agent's source; and which ignore files do not bind it.
    #[serde(skip_serializing_if = "String::is_empty")]
    pub why: String,
}

impl Default for ProjectRules {
    fn default() -> Self {
        ProjectRules {
            enabled: true,
            files: Vec::new(),
            refusal: None,
            default_refusal: None,
            refusal_by_file: BTreeMap::new(),
            why: String::new(),
        }
    }
}

impl ProjectRules {
    pub(crate) fn is_default(&self) -> bool {
        *self == ProjectRules::default()
    }

    /// `workspace` with these rule files, when they are enabled.
    pub(crate) fn apply(&self, workspace: Workspace) -> Workspace {
        if !self.enabled || self.files.is_empty() {
            return workspace;
        }
        workspace.with_rule_files(self.files.iter().cloned())
    }

    /// The template for a refusal by a rule of `file` (a default or not).
    pub(crate) fn template(&self, file: &str, default: bool) -> Option<&String> {
        self.refusal_by_file.get(file).or(if default {
            self.default_refusal.as_ref().or(self.refusal.as_ref())
        } else {
            self.refusal.as_ref()
        })
    }
}
