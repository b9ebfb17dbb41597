//! A [`Source`] as a `std::io` stream: `Read`, `BufRead` and `Seek` over positional reads,
//! for the parsers of documents (image headers, notebooks, PDFs) that take a reader.
//!
//! Every read goes through the source step, so a file that shrinks under the parser is
//! an `UnexpectedEof` that [`SourceStream::error`] turns back into
//! [`Error::Changed`](crate::Error::Changed).

use std::io::{self, BufRead, Read, Seek, SeekFrom};

use crate::error::Error;
use crate::source::Source;

/// How many bytes one refill of the buffer asks the source for.
const BUFFER: usize = 64 << 10;

/// A buffered, seekable reader over a source.
pub(crate) struct SourceStream<'a> {
    src: &'a Source,
    /// The file offset of `buf[0]`.
    base: u64,
    buf: Vec<u8>,
    /// The next byte of `buf` to hand out.
    at: usize,
    /// Whether a read of the source failed (changed, I/O), for [`SourceStream::error`].
    failed: bool,
}

impl<'a> SourceStream<'a> {
    /// A stream from the start of `src`.
    pub(crate) fn new(src: &'a Source) -> SourceStream<'a> {
        SourceStream {
            src,
            base: 0,
            buf: Vec::new(),
            at: 0,
            failed: false,
        }
    }

    /// The file offset of the next byte to be read.
    pub(crate) fn position(&self) -> u64 {
        self.base + self.at as u64
    }

    /// Whether a read of the source failed.
    pub(crate) fn failed(&self) -> bool {
        self.failed
    }

    /// The crate's error for a failed read of the source (what `io::Error` hid).
    pub(crate) fn error(&self) -> Error {
        match self.src.check_unchanged() {
            Err(e) => e,
            Ok(()) => self.src.changed(),
        }
    }

    fn refill(&mut self) -> io::Result<()> {
        let pos = self.position();
        let end = self.src.len().min(pos.saturating_add(BUFFER as u64));
        self.buf.clear();
        self.base = pos;
        self.at = 0;
        if end > pos {
            let n = (end - pos) as usize;
            if let Err(e) = self.src.read_append(pos, n, &mut self.buf) {
                self.failed = true;
                return Err(io::Error::new(io::ErrorKind::UnexpectedEof, e.to_string()));
            }
        }
        Ok(())
    }
}

impl Read for SourceStream<'_> {
    fn read(&mut self, out: &mut [u8]) -> io::Result<usize> {
        let avail = self.fill_buf()?;
        let n = avail.len().min(out.len());
        out[..n].copy_from_slice(&avail[..n]);
        self.consume(n);
        Ok(n)
    }
}

impl BufRead for SourceStream<'_> {
    fn fill_buf(&mut self) -> io::Result<&[u8]> {
        if self.at >= self.buf.len() && self.position() < self.src.len() {
            self.refill()?;
        }
        Ok(&self.buf[self.at..])
    }

    fn consume(&mut self, n: usize) {
        self.at = (self.at + n).min(self.buf.len());
    }
}

impl Seek for SourceStream<'_> {
    fn seek(&mut self, to: SeekFrom) -> io::Result<u64> {
        let target = match to {
            SeekFrom::Start(n) => Some(n),
            SeekFrom::End(d) => self.src.len().checked_add_signed(d),
            SeekFrom::Current(d) => self.position().checked_add_signed(d),
        }
        .ok_or_else(|| io::Error::from(io::ErrorKind::InvalidInput))?;
        if target >= self.base && target <= self.base + self.buf.len() as u64 {
            self.at = (target - self.base) as usize;
        } else {
            self.base = target;
            self.buf.clear();
            self.at = 0;
        }
        Ok(target)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_and_seeks() {
        let bytes: Vec<u8> = (0..200_000u32).map(|i| (i % 251) as u8).collect();
        let src = Source::from_bytes(bytes.clone(), "x");
        let mut s = SourceStream::new(&src);
        let mut all = Vec::new();
        s.read_to_end(&mut all).unwrap();
        assert_eq!(all, bytes);
        s.seek(SeekFrom::Start(70_000)).unwrap();
        let mut b = [0u8; 4];
        s.read_exact(&mut b).unwrap();
        assert_eq!(b, bytes[70_000..70_004]);
        s.seek(SeekFrom::Current(-2)).unwrap();
        s.read_exact(&mut b).unwrap();
        assert_eq!(b, bytes[70_002..70_006]);
        assert!(!s.failed());
    }
}
