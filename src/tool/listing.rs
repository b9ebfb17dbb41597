//! A directory's listing, for the tools that answer a directory with its entries
//! (Goose's `read_file`) instead of an error.

use std::path::Path;

use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};
use crate::tool::dialect::PathShow;
use crate::tool::template::{fill, fill_into};
use crate::workspace::Workspace;

/// How a tool lists a directory it was asked to read: a title, the subdirectories, then
/// the files, each group sorted by name and shown only when it has entries.
///
/// Entries that a workspace protects are left out (a listing must not show what a read
/// would refuse). At most [`Listing::max_entries`] are shown, directories first.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Listing {
    /// Before the entries (`{path}`: the directory as the dialect shows paths).
    pub title: String,
    /// Before the subdirectories.
    pub dirs_title: String,
    /// Each subdirectory (`{name}`).
    pub dir_entry: String,
    /// After the subdirectories.
    pub dirs_end: String,
    /// Before the files.
    pub files_title: String,
    /// Each file, or anything that is not a directory (`{name}`).
    pub file_entry: String,
    /// Instead of the groups, for a directory without entries.
    pub empty: String,
    /// The most entries shown (0: all).
    pub max_entries: u64,
    /// After the entries, when some were left out (`{more}`: how many, `{max}`).
    pub more: String,
}

/// The listing of the directory `path`, in `workspace` when there is one; `given` is
/// the path as the caller gave it, shown as is or made absolute.
pub(crate) fn list(
    form: &Listing,
    workspace: Option<&Workspace>,
    path: &str,
    given: &str,
    show: PathShow,
) -> Result<String> {
    let dir = match workspace {
        Some(ws) => ws.resolve(path)?,
        None => Path::new(path).to_path_buf(),
    };
    let absolute = dir.to_string_lossy();
    let shown = match show {
        PathShow::Absolute => absolute.as_ref(),
        PathShow::Relative => given,
    };
    let entries = std::fs::read_dir(&dir).map_err(|e| Error::io(Path::new(path), e))?;
    let (mut dirs, mut files) = (Vec::new(), Vec::new());
    for entry in entries {
        let entry = entry.map_err(|e| Error::io(Path::new(path), e))?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if let Some(ws) = workspace {
            let relative = dir.strip_prefix(ws.root()).unwrap_or(Path::new(""));
            if ws.is_protected(relative.join(entry.file_name())) {
                continue;
            }
        }
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        if is_dir {
            dirs.push(name);
        } else {
            files.push(name);
        }
    }
    dirs.sort_unstable();
    files.sort_unstable();
    let total = dirs.len() + files.len();
    let max = match form.max_entries {
        0 => total,
        n => usize::try_from(n).unwrap_or(usize::MAX).min(total),
    };
    files.truncate(max.saturating_sub(dirs.len()));
    dirs.truncate(max);
    let mut out = fill(&form.title, &[("path", &shown)]);
    if !dirs.is_empty() {
        out.push_str(&form.dirs_title);
        for name in &dirs {
            fill_into(&mut out, &form.dir_entry, &[("name", name)]);
        }
        out.push_str(&form.dirs_end);
    }
    if !files.is_empty() {
        out.push_str(&form.files_title);
        for name in &files {
            fill_into(&mut out, &form.file_entry, &[("name", name)]);
        }
    }
    if total == 0 {
        out.push_str(&form.empty);
    }
    if total > max {
        fill_into(
            &mut out,
            &form.more,
            &[("more", &(total - max)), ("max", &max)],
        );
    }
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn form() -> Listing {
        Listing {
            title: "{path}:\n".into(),
            dirs_title: "D\n".into(),
            dir_entry: " {name}/\n".into(),
            dirs_end: "\n".into(),
            files_title: "F\n".into(),
            file_entry: " {name}\n".into(),
            empty: " (empty)\n".into(),
            max_entries: 3,
            more: "+{more} (first {max})\n".into(),
        }
    }

    #[test]
    fn lists_directories_first_sorted_and_hides_protected_entries() {
        let dir = tempfile::tempdir().unwrap();
        for d in ["b", "a"] {
            std::fs::create_dir(dir.path().join(d)).unwrap();
        }
        for f in ["z.txt", "y.txt", ".env"] {
            std::fs::write(dir.path().join(f), "x").unwrap();
        }
        let ws = Workspace::builder(dir.path())
            .protect(".env")
            .build()
            .unwrap();
        let text = list(&form(), Some(&ws), ".", "here", PathShow::Relative).unwrap();
        assert_eq!(text, "here:\nD\n a/\n b/\n\nF\n y.txt\n+1 (first 3)\n");
        let empty = tempfile::tempdir().unwrap();
        let ws = Workspace::new(empty.path()).unwrap();
        assert_eq!(
            list(&form(), Some(&ws), ".", "e", PathShow::Relative).unwrap(),
            "e:\n (empty)\n"
        );
        let e = list(&form(), Some(&ws), "../x", "x", PathShow::Relative).unwrap_err();
        assert!(matches!(e, Error::OutsideWorkspace { .. }), "{e}");
    }
}
