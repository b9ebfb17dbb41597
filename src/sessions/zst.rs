//! Zstandard-compressed transcripts (Codex's cold `rollout-*.jsonl.zst`), read with
//! ruzstd (pure Rust).
//!
//! A compressed file has no positional reads: it is decompressed into memory whole, up
//! to a bound, to be read like any transcript (so even the last N messages cost the
//! whole file), and nothing of it is cached between reads.

use std::fs::File;
use std::io::{BufRead, BufReader, Read};
use std::path::Path;

use ruzstd::decoding::StreamingDecoder;

use crate::error::{Error, Result};

/// Whether `path` names a zstd-compressed file (`*.zst`).
pub(crate) fn is_zst(path: &Path) -> bool {
    path.extension().is_some_and(|e| e == "zst")
}

fn corrupt(path: &Path, what: impl std::fmt::Display) -> Error {
    Error::Store {
        path: path.to_path_buf(),
        message: format!("cannot decompress this zstd file: {what}"),
    }
}

fn too_large(path: &Path, limit: u64) -> Error {
    Error::Store {
        path: path.to_path_buf(),
        message: format!(
            "decompresses to more than {limit} bytes, the limit for compressed transcripts \
             (raise it with the store's max_decompressed setter)"
        ),
    }
}

/// Decompresses `path` (every frame), failing when it holds more than `limit` bytes.
///
/// # Errors
///
/// I/O errors; [`Error::Store`] for a file that is not zstd or is larger than `limit`
/// once decompressed.
pub(crate) fn inflate(path: &Path, limit: u64) -> Result<Vec<u8>> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    let mut input = BufReader::new(file);
    let mut out = Vec::new();
    loop {
        if input.fill_buf().map_err(|e| Error::io(path, e))?.is_empty() {
            return Ok(out);
        }
        let frame = StreamingDecoder::new(&mut input).map_err(|e| corrupt(path, e))?;
        let room = limit.saturating_sub(out.len() as u64);
        // A frame that declares its size (zstd writes it by default) is refused before it
        // is decompressed, or given exactly the memory it needs.
        let declared = frame.decoder.content_size();
        if declared > room {
            return Err(too_large(path, limit));
        }
        out.reserve(usize::try_from(declared).unwrap_or(0));
        frame
            .take(room.saturating_add(1))
            .read_to_end(&mut out)
            .map_err(|e| corrupt(path, e))?;
        if out.len() as u64 > limit {
            return Err(too_large(path, limit));
        }
    }
}

/// A reader of the decompressed start of `path` (its first frame).
///
/// # Errors
///
/// As [`inflate`].
pub(crate) fn reader(path: &Path) -> Result<impl Read> {
    let file = File::open(path).map_err(|e| Error::io(path, e))?;
    StreamingDecoder::new(BufReader::new(file)).map_err(|e| corrupt(path, e))
}
