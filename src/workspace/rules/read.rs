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

/// The file's stamp without reading it: `None` when it does not exist, an error (the
/// reason) when it may not be used.
pub(crate) fn stamp(root: &Path, rel: &Path, nested: bool) -> Result<Option<Stamp>, String> {
    let mut at = root.to_path_buf();
    let names: Vec<_> = rel.components().collect();
    for (i, c) in names.iter().enumerate() {
        let Component::Normal(name) = c else {
            return Err("its path is not a plain relative path".to_string());
        };
        at.push(name);
        let last = i + 1 == names.len();
        let m = match at.symlink_metadata() {
            Ok(m) => m,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
            // A file where a directory should be: there is no rule file.
            Err(e) if e.kind() == std::io::ErrorKind::NotADirectory => return Ok(None),
            Err(e) => return Err(format!("it cannot be inspected ({e})")),
        };
        let t = m.file_type();
        if t.is_symlink() {
            if nested && !last {
                return Ok(None);
            }
            return Err(if last {
                "it is a symbolic link (a rule file is read only as a regular file inside the \
                 root)"
                    .to_string()
            } else {
                "it lies behind a symbolic link (a rule file is read only inside the root, \
                 reached without links)"
                    .to_string()
            });
        }
        if !last {
            if !t.is_dir() {
                return Ok(None);
            }
            continue;
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

/// Reads the file at `rel` under `root`, under the rules of [`stamp`].
pub(crate) fn load(root: &Path, rel: &Path, nested: bool) -> Result<Loaded, String> {
    if stamp(root, rel, nested)?.is_none() {
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
    let file = match options.open(&path) {
        Ok(f) => f,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Loaded::Absent),
        Err(e) if e.kind() == std::io::ErrorKind::PermissionDenied => {
            return Err("it cannot be read: permission denied".to_string())
        }
        Err(e) => return Err(format!("it cannot be opened ({e})")),
    };
    let m = file
        .metadata()
        .map_err(|e| format!("it cannot be inspected ({e})"))?;
    if !m.is_file() {
        return Err(format!(
            "it is not a regular file ({})",
            kind_of(&m.file_type())
        ));
    }
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
