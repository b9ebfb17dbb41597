//! Protected paths: gitignore-style patterns over paths relative to a workspace root.

use std::path::{Component, Path, PathBuf};

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
#[derive(Debug, Clone)]
pub(crate) struct Protect {
    set: GlobSet,
    rules: Vec<Rule>,
}

impl Protect {
    pub(crate) fn new(patterns: &[String], case_insensitive: bool) -> Result<Protect> {
        let mut builder = GlobSetBuilder::new();
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
            let (dir_only, body) = match body.strip_suffix('/') {
                Some(rest) => (true, rest),
                None => (false, body),
            };
            let anchored = body.contains('/');
            let body = body.strip_prefix('/').unwrap_or(body);
            if body.is_empty() {
                return Err(invalid("the pattern is empty"));
            }
            let glob = if anchored {
                body.to_string()
            } else {
                format!("**/{body}")
            };
            let glob = GlobBuilder::new(&glob)
                .literal_separator(true)
                .case_insensitive(case_insensitive)
                .build()
                .map_err(|e| invalid(&e.kind().to_string()))?;
            builder.add(glob);
            rules.push(Rule { negated, dir_only });
        }
        let set = builder.build().map_err(|e| Error::InvalidPattern {
            pattern: e.glob().unwrap_or_default().to_string(),
            message: e.kind().to_string(),
        })?;
        Ok(Protect { set, rules })
    }

    /// Whether `rel` (relative to the root, without `..`) or one of its ancestor
    /// directories is protected. `is_dir` says whether `rel` itself is a directory.
    pub(crate) fn matches(&self, rel: &Path, is_dir: bool) -> bool {
        if self.rules.is_empty() {
            return false;
        }
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
        if self.rules.is_empty() || rel.as_os_str().is_empty() {
            return false;
        }
        let mut hits = Vec::new();
        self.set
            .matches_candidate_into(&Candidate::new(rel), &mut hits);
        let last = hits
            .iter()
            .copied()
            .filter(|&k| is_dir || !self.rules[k].dir_only)
            .max();
        last.is_some_and(|k| !self.rules[k].negated)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn protect(patterns: &[&str]) -> Protect {
        let p: Vec<String> = patterns.iter().map(|s| s.to_string()).collect();
        Protect::new(&p, false).unwrap()
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
        assert!(Protect::new(&["a[".to_string()], false).is_err());
        assert!(Protect::new(&["/".to_string()], false).is_err());
        assert!(Protect::new(&["!".to_string()], false).is_err());
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
