//! A directory's listing ([`Listing`]), for the tools that answer a directory with its
//! entries (Goose's `read_file`) instead of an error.

use std::path::Path;

use crate::error::{Error, Result};
use crate::tool::dialect::listing::Listing;
use crate::tool::dialect::listing::ListingOrder;
use crate::tool::dialect::template::{fill, fill_into};
use crate::tool::dialect::PathShow;
use crate::tool::render::content::clip_chars;
use crate::workspace::Workspace;

/// One entry under the listed directory: its path there (`/` between levels).
struct Entry {
    name: String,
    is_dir: bool,
}

/// What a walk of the directory found.
struct Found {
    entries: Vec<Entry>,
    /// Hidden entries of the directory itself.
    hidden: u64,
}

/// Collects the entries of `dir` (level `level`, named under `prefix`) into `found`.
fn walk(
    form: &Listing,
    workspace: Option<&Workspace>,
    dir: &Path,
    prefix: &str,
    level: u64,
    found: &mut Found,
) -> std::io::Result<()> {
    let relative = workspace.map(|ws| dir.strip_prefix(ws.root()).unwrap_or(Path::new("")));
    for entry in std::fs::read_dir(dir)? {
        let entry = entry?;
        let name = entry.file_name().to_string_lossy().into_owned();
        if form.hidden.is_some() && name.starts_with('.') {
            if level == 1 {
                found.hidden += 1;
            }
            continue;
        }
        if let (Some(ws), Some(rel)) = (workspace, relative) {
            if ws.is_protected(rel.join(entry.file_name())) {
                continue;
            }
        }
        // A link to a directory counts as one, as `find -L` and `ls` show it.
        let path = entry.path();
        let is_dir = std::fs::metadata(&path).is_ok_and(|m| m.is_dir());
        let name = format!("{prefix}{name}");
        if is_dir && level < form.depth.max(1) {
            let inside = match workspace {
                Some(ws) => ws.resolve(&path).ok(),
                None => Some(path),
            };
            if let Some(sub) = inside {
                // An unreadable subdirectory is shown without its entries.
                let _ = walk(form, workspace, &sub, &format!("{name}/"), level + 1, found);
            }
        }
        found.entries.push(Entry { name, is_dir });
    }
    Ok(())
}

/// The listing of the directory `path`, in `workspace` when there is one; `given` is
/// the path as the caller gave it, shown as is or made absolute.
pub(crate) fn list(
    form: &Listing,
    workspace: Option<&Workspace>,
    path: &str,
    given: &str,
    show: PathShow,
) -> Result<(String, Listed)> {
    let dir = match workspace {
        Some(ws) => ws.resolve(path)?,
        None => Path::new(path).to_path_buf(),
    };
    let absolute = dir.to_string_lossy();
    let shown = match show {
        PathShow::Absolute => absolute.as_ref(),
        PathShow::Relative => given,
    };
    let mut found = Found {
        entries: Vec::new(),
        hidden: 0,
    };
    walk(form, workspace, &dir, "", 1, &mut found).map_err(|e| Error::io(Path::new(path), e))?;
    let mut entries = found.entries;
    match form.order {
        ListingOrder::Grouped => entries.sort_unstable_by(|a, b| {
            (!a.is_dir, a.name.as_str()).cmp(&(!b.is_dir, b.name.as_str()))
        }),
        ListingOrder::Paths => entries.sort_unstable_by(|a, b| a.name.cmp(&b.name)),
    }
    let total = entries.len();
    let max = match form.max_entries {
        0 => total,
        n => usize::try_from(n).unwrap_or(usize::MAX).min(total),
    };
    entries.truncate(max);
    let mut body = String::new();
    let grouped = form.order == ListingOrder::Grouped;
    let dirs = entries.iter().filter(|e| e.is_dir).count();
    // Where each entry's text ends in the body, for what a clip of it keeps.
    let mut ends = Vec::with_capacity(entries.len());
    for (i, e) in entries.iter().enumerate() {
        if grouped && i == 0 && dirs > 0 {
            body.push_str(&form.dirs_title);
        }
        if grouped && i == dirs {
            if dirs > 0 {
                body.push_str(&form.dirs_end);
            }
            body.push_str(&form.files_title);
        }
        let template = if e.is_dir {
            &form.dir_entry
        } else {
            &form.file_entry
        };
        fill_into(&mut body, template, &[("name", &e.name), ("path", &shown)]);
        ends.push(body.len());
    }
    if grouped && dirs > 0 && dirs == entries.len() {
        body.push_str(&form.dirs_end);
    }
    let mut out = fill(&form.title, &[("path", &shown)]);
    let mut listed = max;
    match form
        .clip
        .as_ref()
        .and_then(|c| clip_chars(&body, c).map(|cut| (c, cut)))
    {
        Some((clip, cut)) => {
            // The entries whose whole text the clip kept (a clip that keeps the tail
            // too shows some at the end: those are not counted).
            let kept = body
                .char_indices()
                .nth(usize::try_from(clip.chars).unwrap_or(usize::MAX))
                .map_or(body.len(), |(at, _)| at);
            listed = ends.iter().filter(|&&end| end <= kept).count();
            out.push_str(&cut);
        }
        None => out.push_str(&body),
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
    if let (Some(hidden), 1..) = (&form.hidden, found.hidden) {
        fill_into(
            &mut out,
            hidden,
            &[("count", &found.hidden), ("path", &shown)],
        );
    }
    let listed = Listed {
        shown: listed as u64,
        total: total as u64,
    };
    Ok((out, listed))
}

/// How many entries a listing shows, of how many.
#[derive(Debug, Clone, Copy)]
pub(crate) struct Listed {
    pub shown: u64,
    pub total: u64,
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::tool::dialect::Clip;

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
            depth: 1,
            range_refusal: None,
            order: ListingOrder::Grouped,
            hidden: None,
            clip: None,
        }
    }

    #[test]
    fn lists_two_levels_as_sorted_paths_without_hidden_entries() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path();
        for d in ["d/sub/deeper", "d/.git", "d/a.b"] {
            std::fs::create_dir_all(root.join(d)).unwrap();
        }
        for f in [
            "d/z",
            "d/.env",
            "d/sub/x",
            "d/sub/.h",
            "d/sub/deeper/no",
            "d/.git/no",
        ] {
            std::fs::write(root.join(f), "x").unwrap();
        }
        let ws = Workspace::new(root).unwrap();
        let form = Listing {
            title: "{path}:".into(),
            dir_entry: " {path}/{name}/".into(),
            file_entry: " {path}/{name}".into(),
            max_entries: 0,
            depth: 2,
            order: ListingOrder::Paths,
            hidden: Some(" ({count} hidden in {path})".into()),
            ..form()
        };
        let (text, _) = list(&form, Some(&ws), "d", "D", PathShow::Relative).unwrap();
        // `a.b` sorts before `sub` and `sub/deeper` before `sub/x`; nothing of level 3,
        // nothing hidden; two hidden entries in `d` itself.
        assert_eq!(
            text,
            "D: D/a.b/ D/sub/ D/sub/deeper/ D/sub/x D/z (2 hidden in D)"
        );
        let clip = Clip {
            chars: 12,
            notice: "<cut>".into(),
            keep: Default::default(),
        };
        let form = Listing {
            clip: Some(clip),
            hidden: None,
            ..form
        };
        let (text, _) = list(&form, Some(&ws), "d", "D", PathShow::Relative).unwrap();
        assert_eq!(text, "D: D/.env D/.g<cut>");
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
        let (text, listed) = text;
        assert_eq!((listed.shown, listed.total), (3, 4));
        assert_eq!(text, "here:\nD\n a/\n b/\n\nF\n y.txt\n+1 (first 3)\n");
        let empty = tempfile::tempdir().unwrap();
        let ws = Workspace::new(empty.path()).unwrap();
        assert_eq!(
            list(&form(), Some(&ws), ".", "e", PathShow::Relative)
                .unwrap()
                .0,
            "e:\n (empty)\n"
        );
        let e = list(&form(), Some(&ws), "../x", "x", PathShow::Relative).unwrap_err();
        assert!(matches!(e, Error::OutsideWorkspace { .. }), "{e}");
    }
}
