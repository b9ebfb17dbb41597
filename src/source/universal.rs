//! A source whose lone CRs read as LFs: universal newlines
//! ([`crate::LineEndings::Universal`]) as a view of the bytes, so that the line index,
//! the walking of lines, the budgets and the renderers see a lone CR as the line break
//! it is to Python's `open()`, with no second path through them.
//!
//! A CR and an LF are code units of the same width in every encoding, so the view has
//! the file's length and every offset is a file offset. Which unit is a lone CR is the
//! text module's rule ([`Units::lone_crs_to_lf`]); this view only reads one unit ahead.

use std::io;

use super::{RandomAccess, Source};
use crate::text::Units;

/// The bytes of `inner` with each lone CR code unit (in `units`) read as an LF unit.
///
/// It answers no [`RandomAccess::identity`], so no cache keeps an index counted this way
/// for a reader that counts lone CRs as content.
pub(super) struct LoneCrAsLf {
    pub inner: Source,
    pub units: Units,
}

impl RandomAccess for LoneCrAsLf {
    fn len(&self) -> u64 {
        self.inner.len()
    }

    fn read_exact_at(&self, offset: u64, buf: &mut [u8]) -> io::Result<()> {
        let len = self.inner.len();
        let w = self.units.width() as u64;
        let end = offset
            .checked_add(buf.len() as u64)
            .filter(|&e| e <= len)
            .ok_or(io::ErrorKind::UnexpectedEof)?;
        if self.units.align_down(offset) == offset && self.units.align_down(end) == end {
            // Whole units (every read of a walk): straight into `buf`, and the unit after
            // them, which says whether a CR at the end is lone.
            RandomAccess::read_exact_at(&self.inner, offset, buf)?;
            let mut next = [0u8; 4];
            let next = &mut next[..w.min(len - end) as usize];
            RandomAccess::read_exact_at(&self.inner, end, next)?;
            let next_is_lf = *next == *self.units.lf();
            self.units.lone_crs_to_lf(offset, buf, next_is_lf);
            return Ok(());
        }
        // Whole units, and the one after them: it says whether a CR at the end is lone.
        let lo = self.units.align_down(offset);
        let hi = self.units.round_up(end).min(len);
        let ahead = (hi + w).min(len);
        let mut bytes = vec![0; (ahead - lo) as usize];
        RandomAccess::read_exact_at(&self.inner, lo, &mut bytes)?;
        let next_is_lf = bytes[(hi - lo) as usize..] == *self.units.lf();
        self.units
            .lone_crs_to_lf(lo, &mut bytes[..(hi - lo) as usize], next_is_lf);
        let from = (offset - lo) as usize;
        buf.copy_from_slice(&bytes[from..from + buf.len()]);
        Ok(())
    }

    fn check_unchanged(&self) -> io::Result<()> {
        RandomAccess::check_unchanged(&self.inner)
    }

    fn will_read(&self, start: u64, end: u64) {
        self.inner.will_read(start, end);
    }
}

impl Source {
    /// This source with each lone CR code unit (in `units`) read as an LF unit (see
    /// [`LoneCrAsLf`]); the path stays the path.
    pub(crate) fn lone_crs_as_lf(self, units: Units) -> Source {
        let path = self.path.clone();
        let resolved = self.resolved.clone();
        let chunk = self.chunk;
        let raw_stamp = self.stamp().copied();
        let mut view = Source::from_random_access(
            std::sync::Arc::new(LoneCrAsLf { inner: self, units }),
            path,
        );
        view.resolved = resolved;
        view.chunk = chunk;
        // The file's state (its modification time in a result's fingerprint), but not
        // its identity: a cache keys entries by that, and this view is never cached.
        if let (Some(raw), super::Backend::Custom { stamp, .. }) = (raw_stamp, &mut view.backend) {
            *stamp = raw;
            stamp.id = None;
        }
        view
    }
}
