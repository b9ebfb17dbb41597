//! Protected paths: gitignore-style patterns over paths relative to a workspace root.

use std::borrow::Cow;
use std::ffi::{OsStr, OsString};
use std::path::{Path, PathBuf};

use caseless::Caseless;
use unicode_normalization::UnicodeNormalization;

use globset::{Candidate, GlobBuilder, GlobSet, GlobSetBuilder};

use crate::error::{Error, Result};

#[derive(Debug, Clone, Copy)]
struct Rule {
    negated: bool,
    dir_only: bool,
}

/// A compiled list of protected patterns.
///
/// The syntax is gitignore's, without comments: a pattern without a slash matches a name
/// at any depth (`*.pem`, `.env`); a pattern with a slash (leading or inside) is anchored
/// at the root (`/config/local.toml`, `secrets/*.key`); a trailing slash matches
/// directories only; `*` and `?` do not cross `/`, `**` does; `[...]` classes; `!`
/// re-allows what an earlier pattern protected (the last matching pattern decides). A
/// protected directory protects everything beneath it, and, as in git, a path under a
/// protected directory cannot be re-allowed.
///
/// Patterns are normalized when compiled: `./` and `.` components are dropped (a
/// pattern that started with `./` is anchored at the root), an absolute pattern under the
/// root loses the root's path (and is anchored), and patterns that can never match are
/// refused: `..` components, the root itself, and an absolute path outside the root (a
/// pattern whose first component exists at the host's `/` but not under the root).
///
/// In case-insensitive mode both sides are folded before matching: full Unicode case
/// folding (`ſ` and `S` are `s`, `ß` is `ss`) and canonical composition (NFC), so that a
/// name spelled decomposed (NFD, as macOS stores it) matches its composed pattern.
///
/// Matching costs no more than a name's length for patterns without a slash (they are
/// matched against the last name only), and a path's length for anchored ones, which are
/// not even looked at for paths deeper than they can match (unless they hold `**`).
#[derive(Debug, Clone)]
pub(crate) struct Protect {
    /// Patterns without a slash, matched against the last name.
    names: GlobSet,
    /// Their indexes in `rules`.
    name_rules: Vec<usize>,
    /// Anchored patterns, matched against the whole path.
    paths: GlobSet,
    /// Their indexes in `rules`.
    path_rules: Vec<usize>,
    /// The most names an anchored pattern can match; `None` when one has `**`.
    path_depth: Option<usize>,
    rules: Vec<Rule>,
    fold: bool,
}

/// Full case folding and canonical composition: the key two spellings share when a
/// case-insensitive, normalization-insensitive file system takes them for one name.
pub(crate) fn fold(s: &str) -> String {
    s.nfd().default_case_fold().nfc().collect()
}

/// Where the root is, for patterns spelled as absolute paths.
pub(crate) struct RootPaths<'a> {
    /// The root, canonicalized.
    pub(crate) root: &'a Path,
    /// The root as the caller spelled it, made absolute.
    pub(crate) alias: Option<&'a Path>,
}

/// A pattern's body (no `!`, no trailing `/`) made relative to the root; whether it is
/// anchored; or why it can never match.
fn normalize(body: &str, at: &RootPaths<'_>) -> std::result::Result<(String, bool), String> {
    let mut body = Cow::Borrowed(body);
    let mut anchored = body.contains('/');
    if body.starts_with('/') {
        let inside = [Some(at.root), at.alias]
            .into_iter()
            .flatten()
            .find_map(|r| {
                let rest = Path::new(body.as_ref()).strip_prefix(r).ok()?;
                Some(rest.to_str()?.to_string())
            });
        match inside {
            Some(rest) if rest.is_empty() => {
                return Err("it names the workspace root itself".to_string())
            }
            Some(rest) => body = Cow::Owned(rest),
            None => {
                let first = body[1..].split('/').next().unwrap_or("");
                let literal = !first.is_empty() && !first.contains(['*', '?', '[', '{', '\\']);
                if literal
                    && Path::new("/").join(first).symlink_metadata().is_ok()
                    && at.root.join(first).symlink_metadata().is_err()
                {
                    return Err(format!(
                        "an absolute path outside the workspace root {} can never match; \
                         write it relative to the root (a leading \"/\" anchors a pattern \
                         at the root, as in .gitignore)",
                        crate::error::escaped(at.root)
                    ));
                }
            }
        }
    }
    let mut parts = Vec::new();
    for (i, part) in body.split('/').enumerate() {
        match part {
            "" => {}
            "." => anchored |= i == 0,
            ".." => {
                return Err(
                    "a \"..\" component can never match: paths are matched inside the root"
                        .to_string(),
                )
            }
            p => parts.push(p),
        }
    }
    Ok((parts.join("/"), anchored))
}

impl Protect {
    pub(crate) fn new(
        patterns: &[String],
        case_insensitive: bool,
        at: &RootPaths<'_>,
    ) -> Result<Protect> {
        let (mut names, mut paths) = (GlobSetBuilder::new(), GlobSetBuilder::new());
        let (mut name_rules, mut path_rules) = (Vec::new(), Vec::new());
        let mut path_depth = Some(0);
        let mut rules = Vec::with_capacity(patterns.len());
        for pattern in patterns {
            let invalid = |message: &str| Error::InvalidPattern {
                pattern: pattern.clone(),
                message: message.to_string(),
            };
            let (negated, body) = match pattern.strip_prefix('!') {
                Some(rest) => (true, rest),
                None => (false, pattern.as_str()),
            };
            let trimmed = body.trim_end_matches('/');
            let dir_only = trimmed.len() < body.len();
            if trimmed.is_empty() {
                return Err(invalid("the pattern is empty"));
            }
            let (body, anchored) = normalize(trimmed, at).map_err(|m| invalid(&m))?;
            if body.is_empty() {
                return Err(invalid("the pattern is empty"));
            }
            let body = if case_insensitive { fold(&body) } else { body };
            let glob = GlobBuilder::new(&body)
                .literal_separator(true)
                .build()
                .map_err(|e| invalid(&e.kind().to_string()))?;
            if anchored {
                path_depth = path_depth
                    .filter(|_| !body.contains("**"))
                    .map(|d: usize| d.max(body.split('/').count()));
                paths.add(glob);
                path_rules.push(rules.len());
            } else {
                names.add(glob);
                name_rules.push(rules.len());
            }
            rules.push(Rule { negated, dir_only });
        }
        let build = |b: GlobSetBuilder| {
            b.build().map_err(|e| Error::InvalidPattern {
                pattern: e.glob().unwrap_or_default().to_string(),
                message: e.kind().to_string(),
            })
        };
        Ok(Protect {
            names: build(names)?,
            name_rules,
            paths: build(paths)?,
            path_rules,
            path_depth,
            rules,
            fold: case_insensitive,
        })
    }

    /// Whether `rel` (relative to the root, without `..`) or one of its ancestor
    /// directories is protected. `is_dir` says whether `rel` itself is a directory.
    #[cfg(any(test, feature = "object-store"))]
    pub(crate) fn matches(&self, rel: &Path, is_dir: bool) -> bool {
        if self.rules.is_empty() {
            return false;
        }
        use std::path::Component;
        let names: Vec<_> = rel
            .components()
            .filter_map(|c| match c {
                Component::Normal(n) => Some(n),
                _ => None,
            })
            .collect();
        let mut prefix = PathBuf::new();
        for (i, name) in names.iter().enumerate() {
            prefix.push(name);
            let dir = is_dir || i + 1 < names.len();
            if self.matches_one(&prefix, dir) {
                return true;
            }
        }
        false
    }

    /// Whether `rel` itself is protected, its ancestors aside (a caller that walks down
    /// checks each directory as it enters it).
    pub(crate) fn matches_one(&self, rel: &Path, is_dir: bool) -> bool {
        if self.rules.is_empty() {
            return false;
        }
        let key = if self.fold {
            fold_path(rel)
        } else {
            rel.to_path_buf()
        };
        self.matches_key(&key, key.components().count(), is_dir)
    }

    /// A name as the patterns see it: folded in case-insensitive mode.
    pub(crate) fn key<'a>(&self, name: &'a OsStr) -> Cow<'a, OsStr> {
        if !self.fold {
            return Cow::Borrowed(name);
        }
        Cow::Owned(match name.to_str() {
            Some(s) => OsString::from(fold(s)),
            None => name.to_ascii_lowercase(),
        })
    }

    /// Whether a path made of [`Protect::key`]s, `depth` names long, is protected
    /// itself (its ancestors aside).
    pub(crate) fn matches_key(&self, key: &Path, depth: usize, is_dir: bool) -> bool {
        if self.rules.is_empty() {
            return false;
        }
        let Some(name) = key.file_name() else {
            return false;
        };
        let mut last = None;
        let mut hits = Vec::new();
        let mut consider = |hits: &[usize], index: &[usize]| {
            for &h in hits {
                let k = index[h];
                if is_dir || !self.rules[k].dir_only {
                    last = last.max(Some(k));
                }
            }
        };
        if !self.name_rules.is_empty() {
            self.names
                .matches_candidate_into(&Candidate::new(name), &mut hits);
            consider(&hits, &self.name_rules);
        }
        if !self.path_rules.is_empty() && self.path_depth.is_none_or(|d| depth <= d) {
            self.paths
                .matches_candidate_into(&Candidate::new(key), &mut hits);
            consider(&hits, &self.path_rules);
        }
        last.is_some_and(|k| !self.rules[k].negated)
    }
}

/// [`fold`] for every name of a path; a name that is not UTF-8 has its ASCII letters
/// lowered, and the rest kept as is.
fn fold_path(rel: &Path) -> PathBuf {
    rel.components()
        .map(|c| {
            let name = c.as_os_str();
            match name.to_str() {
                Some(s) => OsString::from(fold(s)),
                None => name.to_ascii_lowercase(),
            }
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn nowhere() -> RootPaths<'static> {
        RootPaths {
            root: Path::new("/nonexistent-root"),
            alias: None,
        }
    }

    fn protect(patterns: &[&str]) -> Protect {
        let p: Vec<String> = patterns.iter().map(|s| s.to_string()).collect();
        Protect::new(&p, false, &nowhere()).unwrap()
    }

    #[test]
    fn gitignore_semantics() {
        let p = protect(&[
            "*.pem",
            ".env*",
            "!.env.example",
            "/config/local.toml",
            "secrets/",
            "build",
        ]);
        let m = |s: &str| p.matches(Path::new(s), false);
        assert!(m("key.pem"));
        assert!(m("a/b/key.pem"));
        assert!(m(".env"));
        assert!(m("app/.env.local"));
        assert!(!m(".env.example"));
        assert!(m("config/local.toml"));
        assert!(!m("x/config/local.toml"));
        assert!(m("secrets/anything.txt"));
        assert!(m("deep/secrets/x/y"));
        assert!(!m("secrets"), "a trailing slash matches directories only");
        assert!(p.matches(Path::new("secrets"), true));
        assert!(m("build/out.txt"));
        assert!(m("build"));
        assert!(!m("src/main.rs"));
        assert!(!m(""));
    }

    #[test]
    fn a_protected_directory_cannot_be_reallowed_inside() {
        let p = protect(&["secrets", "!secrets/public.txt"]);
        assert!(p.matches(Path::new("secrets/public.txt"), false));
        let p = protect(&["secrets/**", "!secrets/public.txt"]);
        assert!(!p.matches(Path::new("secrets/public.txt"), false));
        assert!(p.matches(Path::new("secrets/key"), false));
    }

    #[test]
    fn star_does_not_cross_directories() {
        let p = protect(&["/*.key"]);
        assert!(p.matches(Path::new("a.key"), false));
        assert!(!p.matches(Path::new("d/a.key"), false));
    }

    #[test]
    fn bad_patterns_are_errors() {
        assert!(Protect::new(&["a[".to_string()], false, &nowhere()).is_err());
        assert!(Protect::new(&["/".to_string()], false, &nowhere()).is_err());
        assert!(Protect::new(&["!".to_string()], false, &nowhere()).is_err());
    }

    #[test]
    fn fold_is_full_case_folding_and_nfc() {
        assert_eq!(fold("\u{17f}ecrets"), "secrets");
        assert_eq!(fold("STRASSE"), fold("straße"));
        assert_eq!(fold("stra\u{1e9e}e"), "strasse");
        assert_eq!(fold("\u{212a}ey"), "key"); // Kelvin sign
        assert_eq!(fold("Cafe\u{301}"), "caf\u{e9}");
        assert_eq!(fold("\u{130}"), "i\u{307}"); // dotted capital I
        assert_eq!(fold("ﬁle"), "file");
        let p = Protect::new(&["Straße/*.PEM".to_string()], true, &nowhere()).unwrap();
        assert!(p.matches(Path::new("strasse/a.pem"), false));
        assert!(p.matches(Path::new("STRA\u{17f}\u{17f}E/A.pem"), false));
        assert!(!p.matches(Path::new("strase/a.pem"), false));
    }

    #[cfg(unix)]
    #[test]
    fn non_utf8_names_match_by_bytes() {
        use std::os::unix::ffi::OsStrExt;
        let p = protect(&["*.pem"]);
        let name = std::ffi::OsStr::from_bytes(b"caf\xe9.pem");
        assert!(p.matches(Path::new(name), false));
    }
}
