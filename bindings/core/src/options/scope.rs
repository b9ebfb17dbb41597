//! Options of the scope a tool reads in: a [`Workspace`] (its protected patterns and rule
//! files) and a [`DialectTool`] over a dialect.

use std::path::Path;
use std::sync::Arc;

use rangeread::tool::{Dialect, DialectTool, Roots};
use rangeread::{IndexCache, Reader, RuleFile, Workspace};
use serde_json::Value;

use super::{Opts, DEFAULT_CACHE_BYTES, WORKSPACE_OPTIONS};
use crate::error::BindError;
use crate::respond::Scope;

/// A [`Workspace`] over `root`: `protect` (gitignore-style patterns refused),
/// `case_insensitive` (patterns matched ignoring Unicode case and NFC/NFD spelling) and
/// `rule_files`, the project's rule files the workspace reads (and re-reads when they
/// change): each a path relative to the root of a file in gitignore syntax
/// (`".geminiignore"`), or a [`RuleFile`] as JSON (`{"path", "syntax", "nested",
/// "in_git_repository", "defaults", "case_insensitive"}`, the form a preset's
/// `rules.files` lists).
///
/// # Errors
///
/// An unknown option, a bad pattern, a root that is not a directory.
pub fn workspace(root: &Path, options: Value) -> Result<Workspace, BindError> {
    let mut o = Opts::new(options, "Workspace")?;
    let mut b = Workspace::builder(root);
    if let Some((spelled, v)) = o.take("protect") {
        b = b.protect_all(strings(&spelled, &v)?);
    }
    if let Some(yes) = o.bool("case_insensitive")? {
        b = b.case_insensitive(yes);
    }
    if let Some((spelled, v)) = o.take("rule_files") {
        b = b.rule_files(rule_files(&spelled, v)?);
    }
    o.done(WORKSPACE_OPTIONS)?;
    Ok(b.build()?)
}

/// Rule files: a path (a gitignore-syntax file) or a rule file as JSON, each.
fn rule_files(spelled: &str, v: Value) -> Result<Vec<RuleFile>, BindError> {
    let items = match v {
        Value::Array(items) => items,
        other => vec![other],
    };
    items
        .into_iter()
        .map(|item| match item {
            Value::String(path) => Ok(RuleFile::gitignore(path)),
            v @ Value::Object(_) => serde_json::from_value(v).map_err(|e| {
                BindError::option(spelled, format!("{spelled}: not a rule file: {e}"))
            }),
            other => Err(BindError::option(
                spelled,
                format!("{spelled} takes paths and rule-file objects, not {other}"),
            )),
        })
        .collect()
}

fn strings(spelled: &str, v: &Value) -> Result<Vec<String>, BindError> {
    let bad = || {
        BindError::option(
            spelled,
            format!("{spelled} must be a list of strings, not {v}"),
        )
    };
    match v {
        Value::String(s) => Ok(vec![s.clone()]),
        Value::Array(items) => items
            .iter()
            .map(|x| x.as_str().map(str::to_string).ok_or_else(bad))
            .collect(),
        _ => Err(bad()),
    }
}

/// A dialect: a preset's name, or a dialect as JSON (a preset's JSON changed, see
/// [`crate::dialect_json`]).
///
/// # Errors
///
/// An unknown preset (naming the presets), or JSON that is not a dialect.
pub fn dialect(spec: Value) -> Result<Dialect, BindError> {
    match spec {
        Value::String(name) => Ok(Dialect::preset(&name)?),
        v @ Value::Object(_) => serde_json::from_value(v).map_err(|e| {
            BindError::option(
                "dialect",
                format!("The dialect is not a valid dialect: {e}"),
            )
        }),
        other => Err(BindError::option(
            "dialect",
            format!("A dialect is a preset's name or a dialect object, not {other}"),
        )),
    }
}

const TOOL_OPTIONS: &[&str] = &[
    "labels",
    "cache_bytes",
    "max_lines",
    "max_bytes",
    "max_line_chars",
];

/// A [`DialectTool`] of `dialect` over `scope`, with its own budgets: `labels` (an
/// object, pattern → the rule's name a refusal quotes, for tools over several roots),
/// `cache_bytes` (the index cache the tool reads through, kept across calls; by default
/// [`DEFAULT_CACHE_BYTES`]; attaching it keeps the dialect's budgets), and the host's
/// budgets `max_lines`, `max_bytes`, `max_line_chars` (each replaces the dialect's, as
/// [`DialectTool::reader`] with [`Reader::max_lines`] and the others; a cut by a budget
/// the agent does not have says where to continue, in the preset's voice; 0: none).
///
/// # Errors
///
/// An unknown option or a bad dialect.
pub fn tool(dialect_spec: Value, scope: Scope, options: Value) -> Result<DialectTool, BindError> {
    let d = dialect(dialect_spec)?;
    let mut o = Opts::new(options, "DialectTool")?;
    let mut labels = Vec::new();
    if let Some((spelled, v)) = o.take("labels") {
        let Value::Object(m) = v else {
            return Err(BindError::option(
                &spelled,
                format!("{spelled} must map patterns to labels, not {v}"),
            ));
        };
        for (pattern, label) in m {
            let Value::String(label) = label else {
                return Err(BindError::option(
                    &spelled,
                    format!("{spelled}: the label of {pattern:?} must be a string"),
                ));
            };
            labels.push((pattern, label));
        }
    }
    let cache_bytes = o.u64("cache_bytes")?.unwrap_or(DEFAULT_CACHE_BYTES);
    let host = super::budgets(&mut o, Reader::new())?;
    o.done(TOOL_OPTIONS)?;
    let mut tool = DialectTool::new(d).reader(host);
    if cache_bytes > 0 {
        let budget = usize::try_from(cache_bytes.max(1 << 20)).unwrap_or(usize::MAX);
        tool = tool.reader_with(|r| r.cache(Arc::new(IndexCache::new(budget))));
    }
    Ok(match scope {
        Scope::Paths if labels.is_empty() => tool,
        Scope::Workspace(ws) if labels.is_empty() => tool.workspace(ws),
        Scope::Paths => {
            return Err(BindError::option(
                "labels",
                "labels name the rules of a workspace's patterns: give a workspace or roots",
            ))
        }
        Scope::Workspace(ws) => tool.roots(label(Roots::new().root(ws), labels)),
        Scope::Roots(list) => {
            let roots = list.into_iter().fold(Roots::new(), Roots::root);
            tool.roots(label(roots, labels))
        }
    })
}

fn label(roots: Roots, labels: Vec<(String, String)>) -> Roots {
    labels.into_iter().fold(roots, |r, (p, l)| r.label(p, l))
}
