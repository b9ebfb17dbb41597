//! Rule files compiled: `.gitignore` syntax through ripgrep's `ignore` crate, Zed's
//! settings through `globset` (as Zed's own `PathMatcher`), Claude Code's deny rules
//! turned into `.gitignore` lines.

use std::collections::HashMap;
use std::path::{Path, PathBuf};

use globset::{Glob, GlobSet, GlobSetBuilder};
use ignore::gitignore::{Gitignore, GitignoreBuilder};
use ignore::Match;

use super::{Hit, RuleFile, RuleSyntax, MAX_RULES_PER_FILE, MAX_RULE_BYTES};

/// Zed's defaults (`assets/settings/default.json`): `file_scan_exclusions` and
/// `private_files`, in force for a setting a project's settings do not set.
const ZED_FILE_SCAN_EXCLUSIONS: &[&str] = &[
    "**/.git",
    "**/.svn",
    "**/.hg",
    "**/.jj",
    "**/CVS",
    "**/.DS_Store",
    "**/Thumbs.db",
    "**/.classpath",
    "**/.settings",
];
const ZED_PRIVATE_FILES: &[&str] = &[
    "**/.env*",
    "**/*.pem",
    "**/*.key",
    "**/*.cert",
    "**/*.crt",
    "**/secrets.yml",
];

/// What one rule file says about one path.
pub(crate) enum Verdict {
    Denied(Hit),
    /// A negation (`!p`) matched last: allowed, and files above are not asked.
    Allowed,
    /// Nothing matched.
    Silent,
}

/// One setting's globs (Zed).
#[derive(Debug)]
pub(crate) struct Setting {
    name: &'static str,
    set: GlobSet,
    globs: Vec<String>,
    default: bool,
}

/// A rule file, compiled.
#[derive(Debug)]
pub(crate) enum Compiled {
    Nothing,
    Gitignore {
        matcher: Gitignore,
        file: PathBuf,
        /// The rule as written, by the line the matcher was given (Claude Code's
        /// `Read(...)`; brace-escaped lines).
        written: HashMap<String, String>,
        setting: Option<&'static str>,
        default: bool,
    },
    Settings {
        settings: Vec<Setting>,
        file: PathBuf,
    },
}

impl Compiled {
    /// What the file says about `rel` (relative to the file's directory).
    pub(crate) fn verdict(&self, rel: &Path, is_dir: bool) -> Verdict {
        match self {
            Compiled::Nothing => Verdict::Silent,
            Compiled::Gitignore {
                matcher,
                file,
                written,
                setting,
                default,
            } => match matcher.matched(rel, is_dir) {
                Match::None => Verdict::Silent,
                Match::Whitelist(_) => Verdict::Allowed,
                Match::Ignore(glob) => {
                    let line = glob.original();
                    Verdict::Denied(Hit::Denied {
                        rule: written
                            .get(line)
                            .cloned()
                            .unwrap_or_else(|| line.to_string()),
                        file: file.clone(),
                        setting: setting.map(String::from),
                        default: *default,
                    })
                }
            },
            Compiled::Settings { settings, file } => {
                for s in settings {
                    if let Some(&i) = s.set.matches(rel).first() {
                        return Verdict::Denied(Hit::Denied {
                            rule: s.globs[i].clone(),
                            file: file.clone(),
                            setting: Some(s.name.to_string()),
                            default: s.default,
                        });
                    }
                }
                Verdict::Silent
            }
        }
    }
}

/// `{` and `}` escaped: git's patterns have no alternatives, `globset`'s do.
fn git_line(line: &str) -> String {
    let mut out = String::with_capacity(line.len() + 4);
    let mut escaped = false;
    for c in line.chars() {
        if !escaped && (c == '{' || c == '}') {
            out.push('\\');
        }
        escaped = !escaped && c == '\\';
        out.push(c);
    }
    out
}

/// Lines in `.gitignore` syntax compiled for the directory of `file` (`lines` pairs
/// the line with the rule as written).
fn gitignore(
    f: &RuleFile,
    file: &Path,
    lines: impl IntoIterator<Item = (String, String)>,
    setting: Option<&'static str>,
    default: bool,
) -> Result<Compiled, String> {
    // Paths are given relative to the file's directory: the matcher strips nothing.
    let mut b = GitignoreBuilder::new("");
    b.case_insensitive(f.case_insensitive)
        .map_err(|e| e.to_string())?;
    let mut written = HashMap::new();
    let mut count = 0usize;
    for (line, rule) in lines {
        let trimmed = line.trim();
        if trimmed.is_empty() || trimmed.starts_with('#') {
            continue;
        }
        count += 1;
        if count > MAX_RULES_PER_FILE {
            return Err(format!(
                "it holds more than {MAX_RULES_PER_FILE} patterns, the most a rule file may have"
            ));
        }
        if line.len() > MAX_RULE_BYTES {
            return Err(format!(
                "a pattern is {} bytes long, over the {MAX_RULE_BYTES} bytes a pattern may have",
                line.len()
            ));
        }
        let git = git_line(&line);
        b.add_line(None, &git)
            .map_err(|e| format!("the pattern {rule:?} is not valid ({e})"))?;
        let key = if git.ends_with("\\ ") {
            git.clone()
        } else {
            git.trim_end().to_string()
        };
        written.insert(key, rule);
    }
    let matcher = b
        .build()
        .map_err(|e| format!("its patterns cannot be compiled ({e})"))?;
    Ok(Compiled::Gitignore {
        matcher,
        file: file.to_path_buf(),
        written,
        setting,
        default,
    })
}

/// A file read as `text`.
pub(crate) fn compile(
    f: &RuleFile,
    file: &Path,
    text: &str,
    root: &Path,
) -> Result<Compiled, String> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    match f.syntax {
        RuleSyntax::Gitignore | RuleSyntax::Builtin => {
            let lines = text.lines().map(|l| {
                let l = l.strip_suffix('\r').unwrap_or(l);
                (l.to_string(), l.trim_end().to_string())
            });
            gitignore(f, file, lines, None, false)
        }
        RuleSyntax::ZedSettings => zed(file, Some(text)),
        RuleSyntax::ClaudeSettings => claude(f, file, text, root),
    }
}

/// A file that does not exist: its defaults.
pub(crate) fn absent(f: &RuleFile, file: &Path) -> Result<Compiled, String> {
    match f.syntax {
        RuleSyntax::ZedSettings => zed(file, None),
        _ if f.defaults.is_empty() => Ok(Compiled::Nothing),
        _ => {
            let lines = f.defaults.iter().map(|l| (l.clone(), l.clone()));
            gitignore(f, file, lines, None, true)
        }
    }
}

/// Patterns always in force.
pub(crate) fn builtin(f: &RuleFile) -> Result<Compiled, String> {
    let lines = f.defaults.iter().map(|l| (l.clone(), l.clone()));
    gitignore(f, Path::new(&f.path), lines, None, false)
}

/// JSON with `//` and `/* */` comments and trailing commas, as Zed reads its settings,
/// made plain JSON (comments become spaces; string contents are kept).
fn strip_jsonc(text: &str) -> String {
    let b = text.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        match b[i] {
            b'"' => {
                out.push(b'"');
                i += 1;
                while i < b.len() && b[i] != b'"' {
                    if b[i] == b'\\' && i + 1 < b.len() {
                        out.push(b[i]);
                        i += 1;
                    }
                    out.push(b[i]);
                    i += 1;
                }
                if i < b.len() {
                    out.push(b'"');
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'/') => {
                while i < b.len() && b[i] != b'\n' {
                    i += 1;
                }
            }
            b'/' if b.get(i + 1) == Some(&b'*') => {
                i += 2;
                while i < b.len() && !(b[i] == b'*' && b.get(i + 1) == Some(&b'/')) {
                    i += 1;
                }
                i = (i + 2).min(b.len());
                out.push(b' ');
            }
            b',' => {
                // A comma followed (past blanks and comments) by a closing bracket.
                let mut j = i + 1;
                loop {
                    while j < b.len() && b[j].is_ascii_whitespace() {
                        j += 1;
                    }
                    if b.get(j) == Some(&b'/') && b.get(j + 1) == Some(&b'/') {
                        while j < b.len() && b[j] != b'\n' {
                            j += 1;
                        }
                    } else if b.get(j) == Some(&b'/') && b.get(j + 1) == Some(&b'*') {
                        j += 2;
                        while j < b.len() && !(b[j] == b'*' && b.get(j + 1) == Some(&b'/')) {
                            j += 1;
                        }
                        j = (j + 2).min(b.len());
                    } else {
                        break;
                    }
                }
                if !matches!(b.get(j), Some(b']' | b'}')) {
                    out.push(b',');
                }
                i += 1;
            }
            c => {
                out.push(c);
                i += 1;
            }
        }
    }
    String::from_utf8(out).unwrap_or_default()
}

/// Zed's settings: `file_scan_exclusions` (checked first, as Zed does) and
/// `private_files`; a setting the file does not set has Zed's default.
fn zed(file: &Path, text: Option<&str>) -> Result<Compiled, String> {
    let v: serde_json::Value = match text {
        Some(t) => serde_json::from_str(&strip_jsonc(t))
            .map_err(|e| format!("it is not valid settings JSON ({e})"))?,
        None => serde_json::Value::Null,
    };
    let mut settings = Vec::new();
    for (name, defaults) in [
        ("file_scan_exclusions", ZED_FILE_SCAN_EXCLUSIONS),
        ("private_files", ZED_PRIVATE_FILES),
    ] {
        let (globs, default): (Vec<String>, bool) = match v.get(name) {
            None | Some(serde_json::Value::Null) => {
                (defaults.iter().map(|s| s.to_string()).collect(), true)
            }
            Some(serde_json::Value::Array(a)) => {
                let globs = a
                    .iter()
                    .map(|g| {
                        g.as_str()
                            .map(String::from)
                            .ok_or_else(|| format!("`{name}` holds {g}, not a glob string"))
                    })
                    .collect::<Result<_, _>>()?;
                (globs, false)
            }
            Some(other) => return Err(format!("`{name}` is {other}, not a list of globs")),
        };
        if globs.len() > MAX_RULES_PER_FILE {
            return Err(format!(
                "`{name}` holds more than {MAX_RULES_PER_FILE} globs, the most a setting may have"
            ));
        }
        let mut b = GlobSetBuilder::new();
        for g in &globs {
            if g.len() > MAX_RULE_BYTES {
                return Err(format!(
                    "a glob of `{name}` is {} bytes long, over the {MAX_RULE_BYTES} bytes a \
                     pattern may have",
                    g.len()
                ));
            }
            b.add(Glob::new(g).map_err(|e| format!("`{name}` glob {g:?} is not valid ({e})"))?);
        }
        let set = b
            .build()
            .map_err(|e| format!("the globs of `{name}` cannot be compiled ({e})"))?;
        settings.push(Setting {
            name,
            set,
            globs,
            default,
        });
    }
    Ok(Compiled::Settings {
        settings,
        file: file.to_path_buf(),
    })
}

/// Claude Code's `permissions.deny` rules for the Read tool, as `.gitignore` lines at
/// the root.
fn claude(f: &RuleFile, file: &Path, text: &str, root: &Path) -> Result<Compiled, String> {
    let v: serde_json::Value =
        serde_json::from_str(text).map_err(|e| format!("it is not valid settings JSON ({e})"))?;
    let deny = match v.pointer("/permissions/deny") {
        None | Some(serde_json::Value::Null) => return Ok(Compiled::Nothing),
        Some(serde_json::Value::Array(a)) => a,
        Some(other) => {
            return Err(format!(
                "`permissions.deny` is {other}, not a list of rules"
            ))
        }
    };
    let home = std::env::var_os("HOME").map(PathBuf::from);
    let mut lines = Vec::new();
    for rule in deny {
        let Some(rule) = rule.as_str() else {
            return Err(format!(
                "`permissions.deny` holds {rule}, not a rule string"
            ));
        };
        let rule = rule.trim();
        let pattern = if rule == "Read" || rule == "Read()" {
            "*".to_string()
        } else if let Some(p) = rule.strip_prefix("Read(").and_then(|p| p.strip_suffix(')')) {
            let absolute = if let Some(abs) = p.strip_prefix("//") {
                Some(PathBuf::from(format!("/{abs}")))
            } else {
                p.strip_prefix("~/")
                    .and_then(|rest| home.as_ref().map(|h| h.join(rest)))
            };
            match absolute {
                // Absolute and home paths cover the root only where they lie under it.
                Some(abs) => match abs.strip_prefix(root) {
                    Ok(rel) if !rel.as_os_str().is_empty() => {
                        format!("/{}", rel.to_string_lossy())
                    }
                    Ok(_) => "*".to_string(),
                    Err(_) => match root.strip_prefix(&abs) {
                        // A pattern naming an ancestor of the root (or `**` under one)
                        // covers all of it.
                        Ok(_) => "*".to_string(),
                        Err(_) => continue,
                    },
                },
                None => match p.strip_prefix("./") {
                    Some(rest) => format!("/{rest}"),
                    None => p.to_string(),
                },
            }
        } else {
            continue;
        };
        lines.push((pattern, rule.to_string()));
    }
    gitignore(f, file, lines, Some("permissions.deny"), false)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn jsonc_comments_and_trailing_commas() {
        let t = "{\n // c\n \"a\": [\"x//y\", /* z */ \"w\",],\n}";
        let v: serde_json::Value = serde_json::from_str(&strip_jsonc(t)).unwrap();
        assert_eq!(v["a"][0], "x//y");
        assert_eq!(v["a"][1], "w");
    }

    #[test]
    fn braces_are_literal_as_in_git() {
        assert_eq!(git_line("a{b,c}"), "a\\{b,c\\}");
        assert_eq!(git_line("a\\{b"), "a\\{b");
    }
}
