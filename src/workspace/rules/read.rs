//! Reading a rule file: only a regular file inside the root, reached without a symbolic
//! link, at most [`super::MAX_RULE_FILE_BYTES`] long, opened without blocking (a FIFO is
//! never opened); and its stamp, to tell when it changed.

use std::io::Read;
use std::path::{Component, Path};

use super::MAX_RULE_FILE_BYTES;

/// What tells one version of a file from the next: device, inode, size, modification
/// and change times (the change time moves on every write and rename, even one that
/// restores the modification time).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) struct Stamp {
    dev: u64,
    ino: u64,
    len: u64,
    mtime: (i64, i64),
    ctime: (i64, i64),
}

impl Stamp {
    fn of(m: &std::fs::Metadata) -> Stamp {
        #[cfg(unix)]
        {
            use std::os::unix::fs::MetadataExt;
            Stamp {
                dev: m.dev(),
                ino: m.ino(),
                len: m.len(),
                mtime: (m.mtime(), m.mtime_nsec()),
                ctime: (m.ctime(), m.ctime_nsec()),
            }
        }
        #[cfg(not(unix))]
        {
            let t = m
                .modified()
                .ok()
                .and_then(|t| t.duration_since(std::time::UNIX_EPOCH).ok())
                .map(|d| (d.as_secs() as i64, i64::from(d.subsec_nanos())))
                .unwrap_or((0, 0));
            Stamp {
                dev: 0,
                ino: 0,
                len: m.len(),
                mtime: t,
                ctime: t,
            }
        }
    }
}

/// A rule file as read.
pub(crate) enum Loaded {
    /// There is none (for a nested file: also none where its directory is reached
    /// through a link; the link's target is checked under its own name).
    Absent,
    Text(Stamp, String),
}

/// What one resolution (an open, a resolve, a spelling check) has looked at already:
/// the stamp of each rule file and the type of each directory on the way to one. A
/// resolution asks the rules about every name of its path, twice (as spelled and as
/// resolved), and every rule file covers every name: each is looked at once.
#[derive(Debug, Default)]
pub(crate) struct Pass {
    stamps: Vec<(std::path::PathBuf, Result<Option<Stamp>, String>)>,
    dirs: Vec<(std::path::PathBuf, Way)>,
}

/// What lies at a name on the way to a rule file.
#[derive(Debug, Clone)]
enum Way {
    Dir,
    /// Nothing, or not a directory: there is no rule file beneath.
    None,
    Link,
    Error(String),
}

impl Pass {
    /// The stamp of the rule file at `rel`, taken once in this pass.
    pub(crate) fn stamp(
        &mut self,
        root: &Path,
        rel: &Path,
        nested: bool,
    ) -> Result<Option<Stamp>, String> {
        if let Some((_, s)) = self.stamps.iter().find(|(p, _)| p == rel) {
            return s.clone();
        }
        let s = stamp(root, rel, nested, self);
        self.stamps.push((rel.to_path_buf(), s.clone()));
        s
    }

    /// What lies at `at` (a directory on the way to a rule file), looked at once.
    fn way(&mut self, at: &Path) -> Way {
        if let Some((_, w)) = self.dirs.iter().find(|(p, _)| p == at) {
            return w.clone();
        }
        counted();
        let w = match at.symlink_metadata() {
            Ok(m) if m.file_type().is_symlink() => Way::Link,
            Ok(m) if m.is_dir() => Way::Dir,
            Ok(_) => Way::None,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Way::None,
            Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => Way::None,
            Err(e) => Way::Error(format!("it cannot be inspected ({e})")),
        };
        self.dirs.push((at.to_path_buf(), w.clone()));
        w
    }
}

#[cfg(test)]
thread_local! {
    static FS_CALLS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// One file-system call of the rules (counted in tests, on this thread).
fn counted() {
    #[cfg(test)]
    FS_CALLS.with(|c| c.set(c.get() + 1));
}

/// The file-system calls the rules made on this thread so far.
#[cfg(test)]
pub(crate) fn fs_calls() -> u64 {
    FS_CALLS.with(std::cell::Cell::get)
}

/// The file's stamp without reading it: `None` when it does not exist, an error (the
/// reason) when it may not be used. The directories on the way are looked at through
/// `pass`.
fn stamp(root: &Path, rel: &Path, nested: bool, pass: &mut Pass) -> Result<Option<Stamp>, String> {
    let mut at = root.to_path_buf();
    let names: Vec<_> = rel.components().collect();
    for (i, c) in names.iter().enumerate() {
        let Component::Normal(name) = c else {
            return Err("its path is not a plain relative path".to_string());
        };
        at.push(name);
        if i + 1 < names.len() {
            match pass.way(&at) {
                Way::Dir => continue,
                Way::None => return Ok(None),
                Way::Link if nested => return Ok(None),
                Way::Link => {
                    return Err(
                        "it lies behind a symbolic link (a rule file is read only inside \
                                the root, reached without links)"
                            .to_string(),
                    )
                }
                Way::Error(e) => return Err(e),
            }
        }
        counted();
        let m = match at.symlink_metadata() {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            // A file where a directory should be: there is no rule file.
            Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => return Ok(None),
            Err(e) => return Err(format!("it cannot be inspected ({e})")),
        };
        let t = m.file_type();
        if t.is_symlink() {
            return Err(
                "it is a symbolic link (a rule file is read only as a regular file inside the \
                 root)"
                    .to_string(),
            );
        }
        if t.is_dir() {
            return Err("it is a directory".to_string());
        }
        if !t.is_file() {
            return Err(format!("it is not a regular file ({})", kind_of(&t)));
        }
        if m.len() > MAX_RULE_FILE_BYTES {
            return Err(format!(
                "it is {} bytes long, over the {} bytes a rule file may have",
                m.len(),
                MAX_RULE_FILE_BYTES
            ));
        }
        return Ok(Some(Stamp::of(&m)));
    }
    Ok(None)
}

fn kind_of(t: &std::fs::FileType) -> &'static str {
    #[cfg(unix)]
    {
        use std::os::unix::fs::FileTypeExt;
        if t.is_fifo() {
            return "a FIFO";
        }
        if t.is_socket() {
            return "a socket";
        }
        if t.is_block_device() || t.is_char_device() {
            return "a device";
        }
    }
    let _ = t;
    "not a file"
}

/// Reads the file at `rel` under `root`, under the rules of [`stamp`] (its stamp as
/// `pass` took it; the opened file is checked again).
pub(crate) fn load(
    root: &Path,
    rel: &Path,
    nested: bool,
    pass: &mut Pass,
) -> Result<Loaded, String> {
    if pass.stamp(root, rel, nested)?.is_none() {
        return Ok(Loaded::Absent);
    }
    let path = root.join(rel);
    let mut options = std::fs::OpenOptions::new();
    options.read(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        // No link followed, and a FIFO swapped in since the check opens without
        // waiting for a writer (and is refused by its type below).
        options.custom_flags(
            (rustix::fs::OFlags::NOFOLLOW | rustix::fs::OFlags::NONBLOCK).bits() as i32,
        );
    }
    counted();
    let file = match options.open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Loaded::Absent),
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            return Err("it cannot be read: permission denied".to_string())
        }
        Err(e) => return Err(format!("it cannot be opened ({e})")),
    };
    counted();
    let m = file
        .metadata()
        .map_err(|e| format!("it cannot be inspected ({e})"))?;
    if !m.is_file() {
        return Err(format!(
            "it is not a regular file ({})",
            kind_of(&m.file_type())
        ));
    }
    counted();
    let mut bytes = Vec::new();
    file.take(MAX_RULE_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| format!("it cannot be read ({e})"))?;
    if bytes.len() as u64 > MAX_RULE_FILE_BYTES {
        return Err(format!(
            "it is over the {MAX_RULE_FILE_BYTES} bytes a rule file may have"
        ));
    }
    let text = String::from_utf8(bytes).map_err(|e| {
        format!(
            "it is not UTF-8 (invalid byte at offset {})",
            e.utf8_error().valid_up_to()
        )
    })?;
    Ok(Loaded::Text(Stamp::of(&m), text))
}
