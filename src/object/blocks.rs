//! The block cache of one object source: the fetched segments of the object (bounded,
//! least recently used evicted, never overlapping) and the streams of front-to-back
//! passes in progress.

use std::collections::BTreeMap;
use std::ops::Range;

use bytes::Bytes;
use futures_util::stream::BoxStream;

/// A segment of the object held in the cache.
pub(super) struct Segment {
    data: Bytes,
    used: u64,
}

/// A streaming `GET` in progress, for a front-to-back pass.
pub(super) struct Stream {
    /// The object offset of the first byte of `pending`.
    pub(super) next: u64,
    pub(super) end: u64,
    pub(super) pending: Bytes,
    pub(super) body: BoxStream<'static, object_store::Result<Bytes>>,
}

#[derive(Default)]
pub(super) struct State {
    segments: BTreeMap<u64, Segment>,
    cached: u64,
    tick: u64,
    /// A front-to-back pass announced by `RandomAccess::will_read`, not yet started.
    pub(super) planned: Option<Range<u64>>,
    pub(super) streams: Vec<Stream>,
}

impl State {
    /// The cached segment holding `pos`, as `(start, end)`.
    pub(super) fn segment_at(&self, pos: u64) -> Option<(u64, u64)> {
        let (&s, seg) = self.segments.range(..=pos).next_back()?;
        let e = s + seg.data.len() as u64;
        (pos < e).then_some((s, e))
    }

    /// The end of the last segment that ends at or before `pos` (0 if none).
    pub(super) fn end_before(&self, pos: u64) -> u64 {
        self.segments
            .range(..=pos)
            .next_back()
            .map_or(0, |(&s, seg)| (s + seg.data.len() as u64).min(pos))
    }

    /// The start of the first segment after `pos` (`len` if none).
    pub(super) fn start_after(&self, pos: u64, len: u64) -> u64 {
        self.segments
            .range(pos + 1..)
            .next()
            .map_or(len, |(&s, _)| s)
    }

    /// The end of the run of cached bytes that starts at `pos` (`pos` when it is not
    /// cached).
    pub(super) fn cached_through(&self, pos: u64) -> u64 {
        let mut at = pos;
        while let Some((_, e)) = self.segment_at(at) {
            at = e;
        }
        at
    }

    /// Copies what the cache holds of `[pos, ..)` into `buf`; returns how many bytes.
    pub(super) fn copy_from_cache(&mut self, pos: u64, buf: &mut [u8]) -> usize {
        let mut done = 0;
        while done < buf.len() {
            let at = pos + done as u64;
            let Some((s, e)) = self.segment_at(at) else {
                break;
            };
            self.tick += 1;
            let tick = self.tick;
            let seg = self.segments.get_mut(&s).expect("found above");
            seg.used = tick;
            let n = ((e - at) as usize).min(buf.len() - done);
            let from = (at - s) as usize;
            buf[done..done + n].copy_from_slice(&seg.data[from..from + n]);
            done += n;
        }
        done
    }

    /// Keeps `data` (bytes of `[start, ..)` not yet cached) and evicts the least recently
    /// used segments beyond `budget` bytes.
    pub(super) fn insert(&mut self, start: u64, mut data: Bytes, budget: u64) {
        // Segments never overlap: drop what is cached already at either end.
        let mut start = start;
        if let Some((_, e)) = self.segment_at(start) {
            let skip = (e - start).min(data.len() as u64) as usize;
            data = data.slice(skip..);
            start = e;
        }
        if let Some((&next, _)) = self.segments.range(start..).next() {
            let keep = (next - start).min(data.len() as u64) as usize;
            data.truncate(keep);
        }
        if data.is_empty() {
            return;
        }
        self.tick += 1;
        self.cached += data.len() as u64;
        self.segments.insert(
            start,
            Segment {
                data,
                used: self.tick,
            },
        );
        while self.cached > budget && self.segments.len() > 1 {
            let oldest = self
                .segments
                .iter()
                .min_by_key(|(_, s)| s.used)
                .map(|(&k, _)| k)
                .expect("not empty");
            if let Some(seg) = self.segments.remove(&oldest) {
                self.cached -= seg.data.len() as u64;
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn bytes(at: u64, n: usize) -> Bytes {
        (0..n).map(|i| ((at + i as u64) % 251) as u8).collect()
    }

    /// The cache holds what was inserted, never overlapping, within its budget, and the
    /// least recently used segment goes first.
    #[test]
    fn the_block_cache_is_bounded_and_never_overlaps() {
        let mut st = State::default();
        st.insert(0, bytes(0, 100), 300);
        st.insert(200, bytes(200, 100), 300);
        // Overlaps both ends: only [100, 200) is new.
        st.insert(50, bytes(50, 200), 300);
        let starts: Vec<(u64, usize)> = st
            .segments
            .iter()
            .map(|(&k, s)| (k, s.data.len()))
            .collect();
        assert_eq!(starts, vec![(0, 100), (100, 100), (200, 100)]);
        let mut buf = vec![0; 300];
        assert_eq!(st.copy_from_cache(0, &mut buf), 300);
        assert_eq!(buf, bytes(0, 300).to_vec());
        // Touch [0, 100) so that [100, 200) is the least recently used, then overflow.
        assert_eq!(st.copy_from_cache(10, &mut buf[..10]), 10);
        st.insert(1000, bytes(1000, 60), 300);
        assert!(st.cached <= 300, "{}", st.cached);
        assert!(
            st.segment_at(150).is_none(),
            "the least recently used went first"
        );
        assert!(st.segment_at(10).is_some());
        assert_eq!(
            st.cached,
            st.segments
                .values()
                .map(|s| s.data.len() as u64)
                .sum::<u64>()
        );
    }
}
