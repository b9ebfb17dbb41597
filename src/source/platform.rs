//! What positional reads, sparse files and pseudo file systems look like on each
//! platform.

use std::fs::File;
use std::io;

use super::MAX_HOLES;

#[cfg(unix)]
pub(super) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    crate::fsopen::fs_call();
    std::os::unix::fs::FileExt::read_at(file, buf, offset)
}

#[cfg(windows)]
pub(super) fn read_at(file: &File, buf: &mut [u8], offset: u64) -> io::Result<usize> {
    crate::fsopen::fs_call();
    std::os::windows::fs::FileExt::seek_read(file, buf, offset)
}

/// The holes of `file` (of `len` bytes), by `SEEK_DATA` / `SEEK_HOLE`; none where the
/// platform lacks them or the file system does not report holes.
#[cfg(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "macos"
))]
pub(super) fn find_holes(file: &File, len: u64) -> Vec<(u64, u64)> {
    use rustix::fs::{seek, SeekFrom};
    let mut holes = Vec::new();
    let mut pos = 0u64;
    while pos < len && holes.len() < MAX_HOLES {
        // The next byte of data; none (ENXIO) means the rest is a hole.
        crate::fsopen::fs_call();
        let data = match seek(file, SeekFrom::Data(pos)) {
            Ok(d) => d.min(len),
            Err(rustix::io::Errno::NXIO) => len,
            Err(_) => break,
        };
        if data > pos {
            holes.push((pos, data));
        }
        if data >= len {
            break;
        }
        crate::fsopen::fs_call();
        match seek(file, SeekFrom::Hole(data)) {
            Ok(h) if h > data => pos = h,
            _ => break,
        }
    }
    holes
}

#[cfg(not(any(
    target_os = "linux",
    target_os = "android",
    target_os = "freebsd",
    target_os = "macos"
)))]
pub(super) fn find_holes(_file: &File, _len: u64) -> Vec<(u64, u64)> {
    Vec::new()
}

/// Whether `file` lives on a kernel pseudo file system (procfs, sysfs, debugfs, tracefs,
/// securityfs, configfs, cgroup), whose sizes say nothing of the content: sysfs reports
/// 4096 for a file of 4 bytes, procfs 0.
#[cfg(any(target_os = "linux", target_os = "android"))]
pub(super) fn on_pseudo_fs(file: &File) -> bool {
    const PSEUDO: &[u64] = &[
        0x9fa0,      // proc
        0x6265_6572, // sysfs
        0x6462_6720, // debugfs
        0x7472_6163, // tracefs
        0x7363_6673, // securityfs
        0x6265_6570, // configfs
        0x0027_e0eb, // cgroup
        0x6367_7270, // cgroup2
    ];
    crate::fsopen::fs_call();
    rustix::fs::fstatfs(file).is_ok_and(|s| PSEUDO.contains(&(s.f_type as u64)))
}

#[cfg(not(any(target_os = "linux", target_os = "android")))]
pub(super) fn on_pseudo_fs(_file: &File) -> bool {
    false
}

/// Reads a file of `len` bytes (as its metadata says) whole, from offset 0: `None` when
/// it holds more than that (it grew, or its size says nothing of its content).
pub(super) fn read_small(file: &File, len: u64, mut data: Vec<u8>) -> io::Result<Option<Vec<u8>>> {
    // One byte more than the size, to see whether there is more.
    let want = usize::try_from(len).unwrap_or(usize::MAX).saturating_add(1);
    data.clear();
    data.resize(want, 0);
    let mut filled = 0;
    while filled < want {
        match read_at(file, &mut data[filled..], filled as u64) {
            Ok(0) => break,
            Ok(n) => {
                filled += n;
                // A regular file reads short only at its end: the size it reported.
                if filled as u64 == len {
                    break;
                }
            }
            Err(e) if e.kind() == io::ErrorKind::Interrupted => {}
            Err(e) => return Err(e),
        }
    }
    if filled == want {
        return Ok(None);
    }
    data.truncate(filled);
    Ok(Some(data))
}

/// Whether the file may live on a kernel pseudo file system, whose sizes say nothing of
/// the content: only a file with no block of storage can (asking the file system is one
/// more call, which a file with blocks does not pay).
pub(super) fn may_be_pseudo(meta: &std::fs::Metadata, file: &File) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        if meta.blocks() > 0 {
            return false;
        }
    }
    let _ = meta;
    on_pseudo_fs(file)
}

/// Whether the file may have holes: only one with fewer blocks than its size needs.
pub(super) fn may_have_holes(meta: &std::fs::Metadata) -> bool {
    #[cfg(unix)]
    {
        use std::os::unix::fs::MetadataExt;
        meta.blocks().saturating_mul(512) < meta.len()
    }
    #[cfg(not(unix))]
    {
        let _ = meta;
        false
    }
}
